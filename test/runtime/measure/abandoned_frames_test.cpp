// Measured calls left without returning (longjmp, siglongjmp, as C libraries' error
// callbacks do): the runtime writes nothing into the stack they leave behind, drops
// the abandoned calls, and counts every call that finishes exactly.
#include <gtest/gtest.h>
#include <setjmp.h>

#include <chrono>
#include <cstdint>

#include "measure/busy_loop.hpp"
#include "perf/perf.hpp"
#include "snapshot_lookup.hpp"

namespace perf {
namespace {

using testing::stats_of;

constexpr uint64_t canary = 0x5afe5afe5afe5afe;
constexpr unsigned canary_words = 2048;  // 16 KiB: far more than the frames left behind
constexpr int jumps = 5;

// Fills the stack region where the abandoned activations were with canary words,
// calls `measured` from below them, and says whether every word is still there.
__attribute__((noinline)) bool canaries_survive(void (*measured)()) {
  volatile uint64_t words[canary_words];
  for (unsigned i = 0; i < canary_words; ++i) words[i] = canary;
  measured();
  for (unsigned i = 0; i < canary_words; ++i)
    if (words[i] != canary) return false;
  return true;
}

// The functions of one kind of jump (longjmp, siglongjmp), in rows of their own.
// The call that returns does some work, so that its compensated time is never 0.
#define ABANDONED_FRAMES_CASE(kind, buffer_type, jump)                \
  buffer_type kind##_target;                                          \
  __attribute__((noinline)) void kind##_maybe_jumps(bool jumps_out) { \
    PERF_MEASURE("abandoned_frames_test." #kind ".maybe_jumps");      \
    if (jumps_out) jump(kind##_target, 1);                            \
    testing::spin_for(std::chrono::microseconds(5));                  \
  }                                                                   \
  __attribute__((noinline)) void kind##_nested_jump() {               \
    PERF_MEASURE("abandoned_frames_test." #kind ".outer");            \
    kind##_maybe_jumps(true);                                         \
  }                                                                   \
  __attribute__((noinline)) void kind##_finishes() {                  \
    PERF_MEASURE("abandoned_frames_test." #kind ".finishes");         \
    __asm__ __volatile__("");                                         \
  }

ABANDONED_FRAMES_CASE(longjmp, jmp_buf, longjmp)
ABANDONED_FRAMES_CASE(siglongjmp, sigjmp_buf, siglongjmp)

// What every case checks once it has jumped `jumps` times out of two nested measured
// calls and then called the inner one once without jumping: the abandoned
// activations no longer count as open, so the call that returned is its row's
// outermost again and its time is the row's total.
void expect_exact_counts(const char* kind) {
  const std::string prefix = std::string("abandoned_frames_test.") + kind;
  EXPECT_EQ(stats_of(prefix + ".finishes").calls, uint64_t{jumps});
  EXPECT_EQ(stats_of(prefix + ".outer").calls, 0u);  // abandoned: dropped
  const function_stats returned = stats_of(prefix + ".maybe_jumps");
  EXPECT_EQ(returned.calls, 1u);
  EXPECT_GT(returned.total_ns, 0.0);
  EXPECT_EQ(returned.total_ns, returned.max_ns);
}

// setjmp and sigsetjmp must be called from the frame that stays, never from a helper.
TEST(AbandonedFrames, LongjmpOutOfMeasuredCallsWritesNothingOnTheStack) {
  for (int i = 0; i < jumps; ++i) {
    if (setjmp(longjmp_target) == 0) longjmp_nested_jump();
    EXPECT_TRUE(canaries_survive(longjmp_finishes)) << "after jump " << i;
  }
  longjmp_maybe_jumps(false);  // from above the abandoned activations
  expect_exact_counts("longjmp");
}

TEST(AbandonedFrames, SiglongjmpOutOfMeasuredCallsWritesNothingOnTheStack) {
  for (int i = 0; i < jumps; ++i) {
    if (sigsetjmp(siglongjmp_target, 1) == 0) siglongjmp_nested_jump();
    EXPECT_TRUE(canaries_survive(siglongjmp_finishes)) << "after jump " << i;
  }
  siglongjmp_maybe_jumps(false);
  expect_exact_counts("siglongjmp");
}

}  // namespace
}  // namespace perf
