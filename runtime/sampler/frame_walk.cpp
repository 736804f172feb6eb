#include "frame_walk.hpp"

#include <pthread.h>
#include <sys/uio.h>
#include <ucontext.h>
#include <unistd.h>

namespace perf::runtime {
namespace {

// A frame record: the caller's frame pointer, then the return address (x86-64 and
// AArch64 alike).
struct frame_record {
  uintptr_t caller_fp;
  uintptr_t return_address;
};

// Reads the record at `fp` unless it could fault. The stack is read as it is, so
// AddressSanitizer must not check these loads against its redzones.
__attribute__((no_sanitize("address", "thread"))) bool read_record(uintptr_t fp, const stack_bounds& bounds,
                                                                    frame_record& out) noexcept {
  if (bounds.high != 0) {
    if (fp < bounds.low || fp > bounds.high - sizeof(frame_record)) return false;
    out = *reinterpret_cast<const frame_record*>(fp);
    return true;
  }
  iovec local{&out, sizeof out};
  iovec remote{reinterpret_cast<void*>(fp), sizeof out};
  return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == static_cast<ssize_t>(sizeof out);
}

}  // namespace

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
                          uintptr_t* frames, unsigned depth) noexcept {
  unsigned count = 0;
  frames[count++] = pc;
  frames[count++] = leaf_caller;
  uintptr_t lowest = sp;
  while (count < depth) {
    frame_record record;
    if (fp < lowest || fp % sizeof(uintptr_t) != 0 || !read_record(fp, bounds, record)) break;
    if (record.return_address == 0) break;  // the outermost frame (_start, clone) ends the chain
    frames[count++] = record.return_address;
    lowest = fp + sizeof(frame_record);
    fp = record.caller_fp;
  }
  return count;
}

unsigned walk_interrupted_stack(const void* ucontext, const stack_bounds& bounds, uintptr_t* frames,
                                unsigned depth) noexcept {
  const auto& context = static_cast<const ucontext_t*>(ucontext)->uc_mcontext;
#if defined(__x86_64__)
  const uintptr_t sp = context.gregs[REG_RSP];
  frame_record top{};  // the word at sp, and the one above it (unused)
  const uintptr_t leaf_caller = read_record(sp, bounds, top) ? top.caller_fp : 0;
  return walk_frame_chain(context.gregs[REG_RIP], leaf_caller, context.gregs[REG_RBP], sp, bounds, frames, depth);
#elif defined(__aarch64__)
  return walk_frame_chain(context.pc, context.regs[30], context.regs[29], context.sp, bounds, frames, depth);
#else
#error "the sampler reads the registers of x86-64 and AArch64 only"
#endif
}

bool is_leaf_caller(uintptr_t candidate, uintptr_t code_start) noexcept {
#if defined(__x86_64__)
  auto byte = [&](unsigned back) { return *reinterpret_cast<const unsigned char*>(candidate - back); };
  if (candidate >= code_start + 5 && byte(5) == 0xe8) return true;  // call rel32
  if (candidate >= code_start + 6 && byte(6) == 0xff && byte(5) == 0x15) return true;  // call *disp32(%rip)
  if (candidate >= code_start + 2 && byte(2) == 0xff && (byte(1) & 0xf8) == 0xd0) return true;  // call *%reg
  if (candidate >= code_start + 3 && byte(3) == 0xff && (byte(2) & 0xf8) == 0x50) return true;  // call *disp8(%reg)
  return false;
#elif defined(__aarch64__)
  if (candidate < code_start + 4 || candidate % 4 != 0) return false;
  const uint32_t instruction = *reinterpret_cast<const uint32_t*>(candidate - 4);
  return (instruction & 0xfc000000) == 0x94000000 || (instruction & 0xfffffc1f) == 0xd63f0000;  // bl, blr
#endif
}

}  // namespace perf::runtime
