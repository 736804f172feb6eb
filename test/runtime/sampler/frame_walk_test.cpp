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

std::vector<uintptr_t> walk(uintptr_t fp, uintptr_t sp, stack_bounds bounds, unsigned depth = 16,
                            const code_ranges* code = nullptr) {
  std::vector<uintptr_t> frames(depth);
  frames.resize(walk_frame_chain(0x1000, 0x2000, fp, sp, bounds, frames.data(), depth, code));
  return frames;
}

// Code at [0x400, 0x600), and the leaf caller walk() passes.
code_ranges fake_code() {
  code_ranges code;
  code.add(0x400, 0x600);
  code.add(0x2000, 0x2001);
  return code;
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

// Code without frame pointers (the C library's malloc) uses the frame pointer register
// for data: the chain goes on from the frame pointer it saved on the stack, after the
// code words below that record.
TEST(FrameWalk, AChainLostAtTheInterruptedInstructionIsFoundOnTheStack) {
  fake_stack s;
  s.words[3] = 0x501;              // a return address (or an old one left in a slot)
  s.words[4] = s.at(30);           // a pointer up the stack to no frame record:
  s.record(30, s.at(40), 0x9999);  // its "return address" is not code
  s.words[5] = s.at(10);           // the saved frame pointer
  s.words[6] = 0x502;
  s.words[7] = 0x12345;  // data, not code
  s.words[8] = 0x503;
  s.record(10, s.at(20), 0x401);
  s.record(20, 0, 0);
  const code_ranges code = fake_code();
  EXPECT_EQ(walk(0x10, s.at(2), s.bounds(), 16, &code),
            (std::vector<uintptr_t>{0x1000, 0x2000, 1, 0x501, 0x502, 0x503, 0, 0x401}));
  // Without the code ranges, the stack ends where the chain was lost.
  EXPECT_EQ(walk(0x10, s.at(2), s.bounds()), (std::vector<uintptr_t>{0x1000, 0x2000}));
  // The chain's first return address always finds room after the markers.
  EXPECT_EQ(walk(0x10, s.at(2), s.bounds(), 5, &code), (std::vector<uintptr_t>{0x1000, 0x2000, 1, 0, 0x401}));
  EXPECT_EQ(walk(0x10, s.at(2), s.bounds(), 4, &code), (std::vector<uintptr_t>{0x1000, 0x2000}));
  // A chain that was not lost is followed as it is: nothing is scanned.
  EXPECT_EQ(walk(s.at(10), s.at(2), s.bounds(), 16, &code), (std::vector<uintptr_t>{0x1000, 0x2000, 0x401}));
}

// A local the interrupted function keeps at the stack pointer (a loop's counter) is
// not a leaf caller: it would make each sample of one stack a new stack.
TEST(FrameWalk, AWordAtTheStackPointerOutsideTheCodeIsNoLeafCaller) {
  fake_stack s;
  s.record(4, s.at(10), 0x401);
  s.record(10, 0, 0);
  const code_ranges code = fake_code();
  const auto walk_with = [&](uintptr_t word) {
    std::vector<uintptr_t> frames(16);
    frames.resize(walk_frame_chain(0x1000, word, s.at(4), s.at(2), s.bounds(), frames.data(), 16, &code));
    return frames;
  };
  for (const uintptr_t word : {uintptr_t{0x12345}, uintptr_t{0x12346}, s.at(7)})
    EXPECT_EQ(walk_with(word), (std::vector<uintptr_t>{0x1000, 0, 0x401})) << word;
  EXPECT_EQ(walk_with(0x402), (std::vector<uintptr_t>{0x1000, 0x402, 0x401})) << "a word in the code is kept";
}

TEST(FrameWalk, NoChainOnTheStackLeavesTheStackAsItWas) {
  fake_stack s;
  s.words[3] = 0x501;
  s.words[4] = 0x20;  // not a stack address
  s.words[5] = s.at(10);
  s.record(10, s.at(20), 0x9999);  // a pointer up the stack, to a return address that is not code
  s.words[12] = s.at(6);           // a pointer down the stack, to a record
  s.record(6, s.at(20), 0x402);
  const code_ranges code = fake_code();
  EXPECT_EQ(walk(0x10, s.at(2), s.bounds(), 16, &code), (std::vector<uintptr_t>{0x1000, 0x2000}));
}

// A record whose caller's frame pointer is 0 is the outermost (_start and clone clear
// the register): nothing is looked for above it.
TEST(FrameWalk, AZeroFramePointerInARecordEndsTheWalk) {
  fake_stack s;
  s.record(4, 0, 0x401);
  s.words[7] = 0x502;
  s.words[8] = s.at(10);
  s.record(10, s.at(20), 0x402);
  const code_ranges code = fake_code();
  EXPECT_EQ(walk(s.at(4), s.at(2), s.bounds(), 16, &code), (std::vector<uintptr_t>{0x1000, 0x2000, 0x401}));
}

TEST(FrameWalk, UnknownBoundsScanTheWordsTheKernelReads) {
  fake_stack s;
  s.words[3] = 0x501;
  s.words[5] = s.at(10);
  s.record(10, s.at(20), 0x402);
  s.record(20, 0, 0);
  const code_ranges code = fake_code();
  EXPECT_EQ(walk(0x10, s.at(2), stack_bounds{}, 16, &code),
            (std::vector<uintptr_t>{0x1000, 0x2000, 1, 0x501, 0, 0x402}));
}

// libstdc++ without frame pointers between the program's functions loses the chain
// again above the first recovered record: it is looked for again, above that record.
TEST(FrameWalk, AChainLostTwiceIsFoundTwice) {
  fake_stack s;
  s.words[3] = 0x501;
  s.words[4] = s.at(10);
  s.record(10, 0x30, 0x401);  // its caller held data in the frame pointer register
  s.words[14] = 0x504;
  s.words[15] = s.at(20);
  s.record(20, s.at(30), 0x402);
  s.record(30, 0, 0);
  const code_ranges code = fake_code();
  EXPECT_EQ(walk(0x10, s.at(2), s.bounds(), 16, &code),
            (std::vector<uintptr_t>{0x1000, 0x2000, 1, 0x501, 0, 0x401, 1, 0x504, 0, 0x402}));
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

TEST(FrameWalk, EveryFormOfIndirectCallIsACall) {
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
    EXPECT_TRUE(is_leaf_caller(start + code.size(), start)) << "call of " << call.size() << " bytes";
  }
  // Not calls: a jump through a register (FF /4), an inc (FF /0), the multi-byte nop
  // that pads functions, and a call one byte short of the candidate.
  for (const std::vector<unsigned char>& code :
       std::vector<std::vector<unsigned char>>{{0x90, 0xff, 0xe0},
                                               {0x90, 0xff, 0xc0},
                                               {0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00},
                                               {0x90, 0xff, 0x50, 0x18, 0x90}}) {
    const auto start = reinterpret_cast<uintptr_t>(code.data());
    EXPECT_FALSE(is_leaf_caller(start + code.size(), start)) << "code of " << code.size() << " bytes";
  }
}
#endif

}  // namespace
}  // namespace perf::runtime
