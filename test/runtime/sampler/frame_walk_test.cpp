#include "sampler/frame_walk.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace perf::runtime {
namespace {

// A fake stack of frame records: words [fp] = caller's fp, [fp + 8] = return address.
struct fake_stack {
  std::vector<uintptr_t> words = std::vector<uintptr_t>(64, 0);
  uintptr_t at(size_t index) const { return reinterpret_cast<uintptr_t>(&words[index]); }
  void record(size_t index, uintptr_t caller_fp, uintptr_t return_address) {
    words[index] = caller_fp;
    words[index + 1] = return_address;
  }
  stack_bounds bounds() const { return {at(0), at(0) + words.size() * sizeof(uintptr_t)}; }
};

std::vector<uintptr_t> walk(uintptr_t fp, uintptr_t sp, stack_bounds bounds, unsigned depth = 16) {
  std::vector<uintptr_t> frames(depth);
  frames.resize(walk_frame_chain(0x1000, 0x2000, fp, sp, bounds, frames.data(), depth));
  return frames;
}

TEST(FrameWalk, FollowsTheChainToItsEnd) {
  fake_stack s;
  s.record(4, s.at(10), 0x401);
  s.record(10, s.at(20), 0x402);
  s.record(20, 0, 0);  // the outermost record: no return address
  EXPECT_EQ(walk(s.at(4), s.at(2), s.bounds()), (std::vector<uintptr_t>{0x1000, 0x2000, 0x401, 0x402}));
}

TEST(FrameWalk, StopsAtTheDepth) {
  fake_stack s;
  s.record(4, s.at(10), 0x401);
  s.record(10, s.at(20), 0x402);
  s.record(20, s.at(30), 0x403);
  EXPECT_EQ(walk(s.at(4), s.at(2), s.bounds(), 3), (std::vector<uintptr_t>{0x1000, 0x2000, 0x401}));
}

TEST(FrameWalk, StopsWhereTheChainGoesDownTheStack) {
  fake_stack s;
  s.record(10, s.at(4), 0x401);  // points below itself: not a frame record
  s.record(4, s.at(20), 0x402);
  EXPECT_EQ(walk(s.at(10), s.at(2), s.bounds()), (std::vector<uintptr_t>{0x1000, 0x2000, 0x401}));
}

TEST(FrameWalk, NeverReadsOutsideTheBounds) {
  fake_stack s;
  s.record(4, 0x10, 0x401);  // a frame pointer that is not one: far outside
  EXPECT_EQ(walk(s.at(4), s.at(2), s.bounds()), (std::vector<uintptr_t>{0x1000, 0x2000, 0x401}));
  // A frame pointer below the stack pointer is not followed at all.
  EXPECT_EQ(walk(s.at(4), s.at(6), s.bounds()), (std::vector<uintptr_t>{0x1000, 0x2000}));
}

TEST(FrameWalk, UnknownBoundsAskTheKernelAndSurviveAnUnmappedAddress) {
  fake_stack s;
  s.record(4, s.at(10), 0x401);
  s.record(10, 0x8, 0x402);  // page zero: reading it would fault
  EXPECT_EQ(walk(s.at(4), s.at(2), stack_bounds{}), (std::vector<uintptr_t>{0x1000, 0x2000, 0x401, 0x402}));
}

TEST(FrameWalk, TheCallingThreadsBoundsHoldItsStack) {
  int local = 0;
  const stack_bounds bounds = current_stack_bounds();
  EXPECT_LE(bounds.low, reinterpret_cast<uintptr_t>(&local));
  EXPECT_GT(bounds.high, reinterpret_cast<uintptr_t>(&local));
}

#if defined(__x86_64__)
TEST(FrameWalk, ALeafCallerFollowsACallInstruction) {
  // call rel32, then the return address; a mov before another "return address".
  const unsigned char code[] = {0x90, 0xe8, 0x00, 0x00, 0x00, 0x00, 0x48, 0x89, 0xe5, 0xc3};
  const auto start = reinterpret_cast<uintptr_t>(code);
  EXPECT_TRUE(is_leaf_caller(start + 6, start));
  EXPECT_FALSE(is_leaf_caller(start + 9, start));
  EXPECT_FALSE(is_leaf_caller(start + 3, start));  // too near the start to hold a call
}
#endif

}  // namespace
}  // namespace perf::runtime
