#include "core/stack_unwind.hpp"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

namespace perf::runtime {
namespace {

std::vector<uintptr_t> through_qsort;  // the stack the comparator took, once

int compare_and_unwind(const void* a, const void* b) {
  if (through_qsort.empty()) {
    through_qsort.resize(64);
    through_qsort.resize(unwind_calling_thread(through_qsort.data(), 64));
  }
  return *static_cast<const int*>(a) - *static_cast<const int*>(b);
}

// qsort (the C library's, without frame pointers) calls the comparator: the unwinder
// steps through it by its call-frame information to this test's function and on to the
// thread's start, every frame checked, with no truncation.
TEST(StackUnwind, StepsThroughTheCLibraryToTheThreadsStart) {
  ASSERT_EQ(prepare_unwinder(), "");
  std::vector<int> values(64);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int>(values.size() - i);
  std::qsort(values.data(), values.size(), sizeof(int), compare_and_unwind);
  ASSERT_GE(through_qsort.size(), 4u);
  EXPECT_LT(through_qsort.size(), 64u);
  EXPECT_NE(through_qsort.back(), truncated_frame);
  Dl_info libc{}, test{}, first{};
  ASSERT_NE(dladdr(reinterpret_cast<void*>(&std::qsort), &libc), 0);
  ASSERT_NE(dladdr(reinterpret_cast<void*>(&compare_and_unwind), &test), 0);
  // The first frame is in the comparator, its caller qsort's code; then, past it, this test's module again.
  ASSERT_NE(dladdr(reinterpret_cast<void*>(through_qsort[1]), &first), 0);
  EXPECT_EQ(first.dli_fbase, libc.dli_fbase);
  bool back_in_test = false;
  for (size_t i = 2; i < through_qsort.size(); ++i) {
    const uintptr_t frame = through_qsort[i];
    Dl_info info{};
    back_in_test |= dladdr(reinterpret_cast<void*>(frame), &info) != 0 && info.dli_fbase == test.dli_fbase;
  }
  EXPECT_TRUE(back_in_test);
}

// libunwind is loaded privately: the program's exceptions still unwind through libgcc's
// _Unwind_RaiseException (or AddressSanitizer's interceptor of it); linked, libunwind's
// came first in the lookup order.
TEST(StackUnwind, ExceptionsStillUnwindThroughLibgcc) {
  ASSERT_EQ(prepare_unwinder(), "");
  Dl_info info{};
  ASSERT_NE(dladdr(dlsym(RTLD_DEFAULT, "_Unwind_RaiseException"), &info), 0);
  EXPECT_EQ(std::string(info.dli_fname).find("libunwind"), std::string::npos) << info.dli_fname;
}

TEST(StackUnwind, TheCallingThreadsBoundsHoldItsStack) {
  int local = 0;
  const stack_bounds bounds = current_stack_bounds();
  EXPECT_LE(bounds.low, reinterpret_cast<uintptr_t>(&local));
  EXPECT_GT(bounds.high, reinterpret_cast<uintptr_t>(&local));
}

#if defined(__x86_64__)
TEST(StackUnwind, AReturnAddressFollowsACallInstruction) {
  // call rel32, then the return address; a mov before another "return address".
  const unsigned char code[] = {0x90, 0xe8, 0x00, 0x00, 0x00, 0x00, 0x48, 0x89, 0xe5, 0xc3};
  const auto start = reinterpret_cast<uintptr_t>(code);
  EXPECT_TRUE(follows_call(start + 6, start));
  EXPECT_FALSE(follows_call(start + 9, start));
  EXPECT_FALSE(follows_call(start + 3, start));  // too near the start to hold a call
}

TEST(StackUnwind, EveryFormOfIndirectCallIsACall) {
  // Each: a nop, the call, then its return address (the end of the array).
  const std::vector<std::vector<unsigned char>> calls = {
      {0xff, 0xd0},                                // call *%rax
      {0x41, 0xff, 0xd3},                          // call *%r11
      {0xff, 0x10},                                // call *(%rax): a virtual call
      {0xff, 0x50, 0x18},                          // call *0x18(%rax)
      {0xff, 0x90, 0x88, 0x00, 0x00, 0x00},        // call *0x88(%rax)
      {0xff, 0x14, 0x24},                          // call *(%rsp)
      {0xff, 0x54, 0x24, 0x08},                    // call *0x8(%rsp)
      {0xff, 0x15, 0x00, 0x10, 0x00, 0x00},        // call *0x1000(%rip)
      {0xff, 0x14, 0xc5, 0x00, 0x10, 0x00, 0x00},  // call *0x1000(,%rax,8)
  };
  for (const std::vector<unsigned char>& call : calls) {
    std::vector<unsigned char> code = {0x90};
    code.insert(code.end(), call.begin(), call.end());
    const auto start = reinterpret_cast<uintptr_t>(code.data());
    EXPECT_TRUE(follows_call(start + code.size(), start)) << "call of " << call.size() << " bytes";
  }
  // Not calls: a jump through a register (FF /4), an inc (FF /0), the multi-byte nop
  // that pads functions, and a call one byte short of the candidate.
  for (const std::vector<unsigned char>& code :
       std::vector<std::vector<unsigned char>>{{0x90, 0xff, 0xe0},
                                               {0x90, 0xff, 0xc0},
                                               {0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00},
                                               {0x90, 0xff, 0x50, 0x18, 0x90}}) {
    const auto start = reinterpret_cast<uintptr_t>(code.data());
    EXPECT_FALSE(follows_call(start + code.size(), start)) << "code of " << code.size() << " bytes";
  }
}
#endif

#if defined(__x86_64__)
// Two functions that corrupt a frame while they spin (unless `garbage` is 0), then
// restore it, with the call-frame information a compiler gives such frames. perf_garbage_fp_spin(iterations,
// garbage): a frame-pointer function whose frame pointer holds `garbage` (its CFA is
// the frame pointer plus 16). perf_garbage_slot_outer(iterations, garbage): a
// frame-pointer function that calls one whose saved frame pointer slot holds `garbage`:
// the outer frame's CFA is then `garbage` plus 16.
asm(R"(
  .macro perf_frame_pointer_prologue
  .cfi_startproc
  push %rbp
  .cfi_def_cfa_offset 16
  .cfi_offset %rbp, -16
  mov %rsp, %rbp
  .cfi_def_cfa_register %rbp
  .endm

  .text
  .p2align 4
  .globl perf_garbage_fp_spin, perf_garbage_fp_loop, perf_garbage_fp_restored
  .hidden perf_garbage_fp_spin, perf_garbage_fp_loop, perf_garbage_fp_restored
  .type perf_garbage_fp_spin, @function
perf_garbage_fp_spin:
  perf_frame_pointer_prologue
  test %rsi, %rsi
  jz perf_garbage_fp_loop
  mov %rsi, %rbp
perf_garbage_fp_loop:
  dec %rdi
  jnz perf_garbage_fp_loop
  mov %rsp, %rbp
perf_garbage_fp_restored:
  pop %rbp
  .cfi_def_cfa %rsp, 8
  ret
  .cfi_endproc
  .size perf_garbage_fp_spin, .-perf_garbage_fp_spin

  .p2align 4
  .globl perf_garbage_slot_outer, perf_garbage_slot_return, perf_garbage_slot_loop, perf_garbage_slot_restored
  .hidden perf_garbage_slot_outer, perf_garbage_slot_return, perf_garbage_slot_loop, perf_garbage_slot_restored
  .type perf_garbage_slot_outer, @function
perf_garbage_slot_outer:
  perf_frame_pointer_prologue
  call perf_garbage_slot_inner
perf_garbage_slot_return:
  pop %rbp
  .cfi_def_cfa %rsp, 8
  ret
  .cfi_endproc
  .size perf_garbage_slot_outer, .-perf_garbage_slot_outer

  .p2align 4
  .type perf_garbage_slot_inner, @function
perf_garbage_slot_inner:
  .cfi_startproc
  push %rbp
  .cfi_def_cfa_offset 16
  .cfi_offset %rbp, -16
  mov %rbp, %rax
  test %rsi, %rsi
  jz perf_garbage_slot_loop
  mov %rsi, (%rsp)
perf_garbage_slot_loop:
  dec %rdi
  jnz perf_garbage_slot_loop
  mov %rax, (%rsp)
perf_garbage_slot_restored:
  pop %rbp
  .cfi_def_cfa_offset 8
  ret
  .cfi_endproc
  .size perf_garbage_slot_inner, .-perf_garbage_slot_inner
)");
extern "C" void perf_garbage_fp_spin(uint64_t iterations, uintptr_t garbage);
extern "C" void perf_garbage_slot_outer(uint64_t iterations, uintptr_t garbage);
extern "C" const char perf_garbage_fp_loop[], perf_garbage_fp_restored[];
extern "C" const char perf_garbage_slot_loop[], perf_garbage_slot_restored[], perf_garbage_slot_return[];

// The stacks sampled while the interrupted instruction lay in [garbage_begin, garbage_end).
struct garbage_sample {
  unsigned depth;
  uintptr_t frames[8];
};
constexpr unsigned garbage_capacity = 1024;
garbage_sample garbage_samples[garbage_capacity];
unsigned garbage_count = 0;  // atomic
uintptr_t garbage_begin = 0, garbage_end = 0;
stack_bounds sampled_stack{};

void sample_the_garbage(int, siginfo_t*, void* ucontext) {
  uintptr_t frames[64];
  const unsigned depth = unwind_interrupted(ucontext, sampled_stack, frames, 64);
  if (frames[0] < garbage_begin || frames[0] >= garbage_end) return;
  const unsigned slot = __atomic_fetch_add(&garbage_count, 1u, __ATOMIC_RELAXED);
  if (slot >= garbage_capacity) return;
  garbage_samples[slot].depth = depth;
  std::copy(frames, frames + std::min(depth, 8u), garbage_samples[slot].frames);
}

// Samples `spin(iterations, garbage)` at 1 kHz of CPU time until 30 samples land where
// the frame is (or would be) corrupt (5 s at most); returns how many did.
unsigned sample_spin(void (*spin)(uint64_t, uintptr_t), uintptr_t garbage, const char* begin, const char* end) {
  garbage_begin = reinterpret_cast<uintptr_t>(begin);
  garbage_end = reinterpret_cast<uintptr_t>(end);
  __atomic_store_n(&garbage_count, 0u, __ATOMIC_RELAXED);
  struct sigaction action {
  }, previous{};
  action.sa_sigaction = sample_the_garbage;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigaction(SIGPROF, &action, &previous);
  const itimerval every_millisecond{{0, 1000}, {0, 1000}}, stopped{};
  setitimer(ITIMER_PROF, &every_millisecond, nullptr);
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (__atomic_load_n(&garbage_count, __ATOMIC_RELAXED) < 30 && std::chrono::steady_clock::now() < until)
    spin(1u << 20, garbage);
  setitimer(ITIMER_PROF, &stopped, nullptr);
  sigaction(SIGPROF, &previous, nullptr);
  return std::min(__atomic_load_n(&garbage_count, __ATOMIC_RELAXED), garbage_capacity);
}

// Under ThreadSanitizer a signal reaches the handler when the thread next enters TSan's
// runtime, with the registers of the moment it arrived: the stack they point into has
// changed since, and only the walk's safety can be checked, not the frames it gives.
#if defined(__SANITIZE_THREAD__)
constexpr bool stale_contexts = true;
#else
constexpr bool stale_contexts = false;
#endif

// The program corrupts a frame (its frame pointer, or a saved frame pointer its caller's
// CFA is taken from) with an address that is not mapped: page zero's, or a page just
// unmapped. Sampled there, the program survives; each stack ends at the corrupt frame
// with a truncation and holds no frame read through the garbage. The same code is
// sampled whole first, so that its frames' rules are cached: libunwind's unw_backtrace,
// the fast walk before, then read the word at the garbage plus 8 unchecked, and the
// handler died of SIGSEGV.
TEST(StackUnwind, ACorruptFrameEndsTheStackWithoutReadingThroughIt) {
  ASSERT_EQ(prepare_unwinder(), "");
  sampled_stack = current_stack_bounds();
  void* page = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(page, MAP_FAILED);
  ASSERT_EQ(munmap(page, 4096), 0);
  const auto return_address = reinterpret_cast<uintptr_t>(perf_garbage_slot_return);
  for (const uintptr_t garbage : {uintptr_t{0x10}, reinterpret_cast<uintptr_t>(page) + 0x100}) {
    unsigned whole = sample_spin(perf_garbage_fp_spin, 0, perf_garbage_fp_loop, perf_garbage_fp_restored);
    EXPECT_GE(whole, 20u);
    for (unsigned i = 0; i < (stale_contexts ? 0 : whole); ++i) {
      ASSERT_GE(garbage_samples[i].depth, 3u);
      EXPECT_NE(garbage_samples[i].frames[1], truncated_frame);
    }
    const unsigned in_fp = sample_spin(perf_garbage_fp_spin, garbage, perf_garbage_fp_loop, perf_garbage_fp_restored);
    EXPECT_GE(in_fp, 20u) << std::hex << garbage;
    for (unsigned i = 0; i < (stale_contexts ? 0 : in_fp); ++i) {
      ASSERT_EQ(garbage_samples[i].depth, 2u) << std::hex << garbage;
      EXPECT_EQ(garbage_samples[i].frames[1], truncated_frame);
    }

    whole = sample_spin(perf_garbage_slot_outer, 0, perf_garbage_slot_loop, perf_garbage_slot_restored);
    EXPECT_GE(whole, 20u);
    for (unsigned i = 0; i < (stale_contexts ? 0 : whole); ++i) {
      ASSERT_GE(garbage_samples[i].depth, 4u);
      EXPECT_EQ(garbage_samples[i].frames[1], return_address);
      EXPECT_NE(garbage_samples[i].frames[2], truncated_frame);
    }
    const unsigned in_slot =
        sample_spin(perf_garbage_slot_outer, garbage, perf_garbage_slot_loop, perf_garbage_slot_restored);
    EXPECT_GE(in_slot, 20u) << std::hex << garbage;
    for (unsigned i = 0; i < (stale_contexts ? 0 : in_slot); ++i) {
      ASSERT_EQ(garbage_samples[i].depth, 3u) << std::hex << garbage;
      EXPECT_EQ(garbage_samples[i].frames[1], return_address);
      EXPECT_EQ(garbage_samples[i].frames[2], truncated_frame);
    }
  }
}
#endif

}  // namespace
}  // namespace perf::runtime
