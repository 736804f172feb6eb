#include "sampler/frame_walk.hpp"

#include <pthread.h>
#include <sys/uio.h>
#include <ucontext.h>
#include <unistd.h>

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define PERF_RUNNING_ON_VALGRIND RUNNING_ON_VALGRIND
#else
#define PERF_RUNNING_ON_VALGRIND 0  // built without valgrind's headers: see docs/sampler.md
#endif

namespace perf::runtime {
namespace {

// A frame record: the caller's frame pointer, then the return address (x86-64 and
// AArch64 alike).
struct frame_record {
  uintptr_t caller_fp;
  uintptr_t return_address;
};

// Reads up to `count` words from `from` into `out` without faulting; returns how many.
// The stack is read as it is, so AddressSanitizer must not check these loads
// against its redzones.
__attribute__((no_sanitize("address", "thread"))) unsigned read_words(uintptr_t from, unsigned count,
                                                                      const stack_bounds& bounds,
                                                                      uintptr_t* out) noexcept {
  if (bounds.high != 0) {
    if (from < bounds.low || from >= bounds.high) return 0;
    const uintptr_t room = (bounds.high - from) / sizeof(uintptr_t);
    if (room < count) count = static_cast<unsigned>(room);
    const auto* words = reinterpret_cast<const uintptr_t*>(from);
    for (unsigned i = 0; i < count; ++i) out[i] = words[i];
    return count;
  }
  iovec local{out, count * sizeof(uintptr_t)};
  iovec remote{reinterpret_cast<void*>(from), count * sizeof(uintptr_t)};
  const ssize_t read = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
  return read > 0 ? static_cast<unsigned>(static_cast<size_t>(read) / sizeof(uintptr_t)) : 0;
}

// Reads the record at `fp` unless it could fault.
bool read_record(uintptr_t fp, const stack_bounds& bounds, frame_record& out) noexcept {
  uintptr_t words[2];
  if (read_words(fp, 2, bounds, words) != 2) return false;
  out = {words[0], words[1]};
  return true;
}

// Whether `fp`, above `lowest`, can be read as a frame record.
bool read_record_above(uintptr_t fp, uintptr_t lowest, const stack_bounds& bounds, frame_record& record) noexcept {
  return fp >= lowest && fp % sizeof(uintptr_t) == 0 && read_record(fp, bounds, record);
}

// The chain lost above `lowest`, looked for on the stack (walk_frame_chain). Appends
// scanned_words_begin, the code words below the record found, then scanned_words_end
// to `frames`; returns the record's address, or 0 (and appends nothing) when none was
// found or there is no room for it.
uintptr_t recover_chain(uintptr_t lowest, const stack_bounds& bounds, const code_ranges& code, uintptr_t* frames,
                        unsigned& count, unsigned depth) noexcept {
  if (count + 3 > depth) return 0;  // the two markers and the chain's first return address
  uintptr_t words[scan_words];
  const uintptr_t from = (lowest + sizeof(uintptr_t) - 1) & ~(sizeof(uintptr_t) - 1);
  const unsigned read = read_words(from, scan_words, bounds, words);
  uintptr_t chain = 0;
  for (unsigned i = 0; i < read && chain == 0; ++i) {
    const uintptr_t at = from + i * sizeof(uintptr_t);
    frame_record record;
    // Its own saved frame pointer may be anything: its caller may be code without them.
    if (words[i] > at && read_record_above(words[i], at, bounds, record) && code.contains(record.return_address))
      chain = words[i];
  }
  if (chain == 0) return 0;
  frames[count++] = scanned_words_begin;
  for (unsigned i = 0; i < read && from + i * sizeof(uintptr_t) < chain && count + 2 < depth; ++i)
    if (code.contains(words[i])) frames[count++] = words[i];
  frames[count++] = scanned_words_end;
  return chain;
}

}  // namespace

void code_ranges::add(uintptr_t range_start, uintptr_t range_limit) noexcept {
  if (count == capacity) return;
  start[count] = range_start;
  limit[count] = range_limit;
  ++count;
}

bool code_ranges::contains(uintptr_t address) const noexcept {
  for (unsigned i = 0; i < count; ++i)
    if (address >= start[i] && address < limit[i]) return true;
  return false;
}

bool stack_read_through_kernel() noexcept { return PERF_RUNNING_ON_VALGRIND != 0; }

stack_bounds current_stack_bounds() noexcept {
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) != 0) return {};
  void* address = nullptr;
  size_t size = 0;
  const int error = pthread_attr_getstack(&attributes, &address, &size);
  pthread_attr_destroy(&attributes);
  if (error != 0) return {};
  const auto low = reinterpret_cast<uintptr_t>(address);
  return {low, low + size};
}

unsigned walk_frame_chain(uintptr_t pc, uintptr_t leaf_caller, uintptr_t fp, uintptr_t sp, const stack_bounds& bounds,
                          uintptr_t* frames, unsigned depth, const code_ranges* code) noexcept {
  unsigned count = 0;
  frames[count++] = pc;
  // Data where the interrupted function keeps a local at the stack pointer (a loop's
  // counter) would make every sample of one stack a stack of its own.
  frames[count++] = code == nullptr || code->contains(leaf_caller) ? leaf_caller : 0;
  uintptr_t lowest = sp;
  unsigned recoveries = 0;
  bool fp_from_record = false;
  while (count < depth) {
    frame_record record;
    if (!read_record_above(fp, lowest, bounds, record)) {
      // Lost: code without frame pointers holds data in the register, or saved it in
      // no record. Look for the chain on the stack above, unless a record's caller is
      // 0: the outermost frame (_start and clone clear the register, as the ABI asks).
      if (code == nullptr || recoveries == max_recoveries || (fp == 0 && fp_from_record)) break;
      // The word at sp is leaf_caller already.
      fp = recover_chain(lowest == sp ? sp + sizeof(uintptr_t) : lowest, bounds, *code, frames, count, depth);
      if (fp == 0) break;
      ++recoveries;
      fp_from_record = false;
      continue;
    }
    if (record.return_address == 0) break;  // the outermost frame (_start, clone) ends the chain
    frames[count++] = record.return_address;
    lowest = fp + sizeof(frame_record);
    fp = record.caller_fp;
    fp_from_record = true;
  }
  return count;
}

unsigned walk_interrupted_stack(const void* ucontext, const stack_bounds& bounds, const code_ranges* code,
                                uintptr_t* frames, unsigned depth) noexcept {
  const auto& context = static_cast<const ucontext_t*>(ucontext)->uc_mcontext;
#if defined(__x86_64__)
  const uintptr_t sp = context.gregs[REG_RSP];
  frame_record top{};  // the word at sp, and the one above it (unused)
  const uintptr_t leaf_caller = read_record(sp, bounds, top) ? top.caller_fp : 0;
  return walk_frame_chain(context.gregs[REG_RIP], leaf_caller, context.gregs[REG_RBP], sp, bounds, frames, depth, code);
#elif defined(__aarch64__)
  return walk_frame_chain(context.pc, context.regs[30], context.regs[29], context.sp, bounds, frames, depth, code);
#else
#error "the sampler reads the registers of x86-64 and AArch64 only"
#endif
}

uintptr_t interrupted_stack_pointer(const void* ucontext) noexcept {
  const auto& context = static_cast<const ucontext_t*>(ucontext)->uc_mcontext;
#if defined(__x86_64__)
  return context.gregs[REG_RSP];
#elif defined(__aarch64__)
  return context.sp;
#endif
}

bool is_leaf_caller(uintptr_t candidate, uintptr_t code_start) noexcept {
#if defined(__x86_64__)
  auto byte = [&](unsigned back) { return *reinterpret_cast<const unsigned char*>(candidate - back); };
  if (candidate >= code_start + 5 && byte(5) == 0xe8) return true;  // call rel32
  // call r/m64 (FF /2: a ModRM byte whose reg field is 2), 2 to 7 bytes long by the
  // ModRM's mod and rm: a register, or memory with a SIB byte and a displacement
  // (a virtual call `*(%rax)`, `*0x88(%rax)`, a table `*disp32(,%rax,8)`, `*disp32(%rip)`).
  for (unsigned length = 2; length <= 7; ++length) {
    if (candidate < code_start + length || byte(length) != 0xff) continue;
    const unsigned modrm = byte(length - 1), mod = modrm >> 6, rm = modrm & 7;
    if (((modrm >> 3) & 7) != 2) continue;
    unsigned size = 2;
    if (mod != 3 && rm == 4) {  // a SIB byte follows the ModRM
      if (length < 3) continue;
      size += 1;
      if (mod == 0 && (byte(length - 2) & 7) == 5) size += 4;  // no base: disp32
    }
    if (mod == 0 && rm == 5) size += 4;  // disp32(%rip)
    if (mod == 1) size += 1;
    if (mod == 2) size += 4;
    if (size == length) return true;
  }
  return false;
#elif defined(__aarch64__)
  if (candidate < code_start + 4 || candidate % 4 != 0) return false;
  const uint32_t instruction = *reinterpret_cast<const uint32_t*>(candidate - 4);
  return (instruction & 0xfc000000) == 0x94000000 || (instruction & 0xfffffc1f) == 0xd63f0000;  // bl, blr
#endif
}

}  // namespace perf::runtime
