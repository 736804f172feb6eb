// Capture limits judged where calls end (ticklog/slow_calls.hpp): judging a call hands
// over exactly the calls past their site's limit, and the room for them drops, and
// counts, what it has no place for.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>
#include <vector>

#include "ticklog/slow_calls.hpp"

namespace perf::runtime {
namespace {

using detail::event_kind;

// Sites far beyond those the test binary registers; 60,000 and 60,064 share a bit.
constexpr unsigned limited_site = 60000, neighbour_site = 60064, unlimited_site = 60001;

TEST(SlowCalls, JudgingHandsOverTheCallsPastTheirSitesLimitAndNoOthers) {
  detail::tick_ring& ring = create_ring(64, 1)->ring;  // made before the limit: it gets the bit
  limit_site(limited_site, 100);
  detail::tick_ring& later = create_ring(64, 2)->ring;      // made after: it starts with it
  detail::judge_call(ring, limited_site, 100, 1000, 1150);  // lasted the limit: not past it
  detail::judge_call(ring, limited_site, 101, 2000, 2151);
  detail::judge_call(ring, neighbour_site, 6000, 3000, 9000);  // its bit set, no limit of its own
  detail::judge_call(ring, unlimited_site, 5000, 4000, 9000);
  detail::judge_call(later, limited_site, 500, 6000, 6550);
  std::vector<slow_call> calls;
  EXPECT_EQ(take_slow_calls(calls), 0u);
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].site, limited_site);
  EXPECT_EQ(calls[0].duration, 101u);
  EXPECT_EQ(calls[0].enter, 2000u);
  EXPECT_EQ(calls[0].exit, 2151u);
  EXPECT_EQ(calls[1].enter, 6000u);
  EXPECT_EQ(calls[1].exit, 6550u);
  calls.clear();
  EXPECT_EQ(take_slow_calls(calls), 0u);
  EXPECT_TRUE(calls.empty()) << "each call taken once";
  unlimit_sites();
  detail::judge_call(ring, limited_site, 2000, 7000, 9000);
  EXPECT_EQ(take_slow_calls(calls), 0u);
  EXPECT_TRUE(calls.empty()) << "no limit after unlimit_sites";
}

// A budget of handovers (a FUNCTION>pQ rule's site, between two findings of its limit)
// lets that many calls through, uncounted beyond; a new budget lets as many again.
TEST(SlowCalls, ABudgetOfHandoversLetsThatManyCallsThroughUntilTheNext) {
  constexpr unsigned budgeted_site = 60002;
  allow_handovers(budgeted_site, 2);
  for (unsigned i = 0; i < 5; ++i) detail::hand_slow_call(budgeted_site, 1000, i, 1000 + i);
  std::vector<slow_call> calls;
  EXPECT_EQ(take_slow_calls(calls), 0u) << "none dropped: those beyond the budget are not handed over";
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[1].exit, 1001u);
  allow_handovers(budgeted_site, 1);
  detail::hand_slow_call(budgeted_site, 1000, 7, 1007);
  detail::hand_slow_call(budgeted_site, 1000, 8, 1008);
  calls.clear();
  take_slow_calls(calls);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].exit, 1007u);
}

TEST(SlowCalls, TheRoomHoldsSlowRoomCallsAndCountsTheRestDropped) {
  for (unsigned i = 0; i < slow_room + 5; ++i) detail::hand_slow_call(unlimited_site, 1000, i, 1000 + i);
  std::vector<slow_call> calls;
  EXPECT_EQ(take_slow_calls(calls), 5u);
  ASSERT_EQ(calls.size(), slow_room);
  for (unsigned i = 0; i < slow_room; ++i) EXPECT_EQ(calls[i].exit, 1000 + i) << "oldest end first";
  detail::hand_slow_call(unlimited_site, 1, 1, 2);
  calls.clear();
  EXPECT_EQ(take_slow_calls(calls), 0u);
  EXPECT_EQ(calls.size(), 1u) << "the room is free again";
}

// The writer sleeps between its looks at the sites (10 ms); a call handed over wakes
// it. Here the sleep asked for is a minute: a wait that ends within 30 s was woken
// (on a loaded machine the waking thread may itself wait for a processor).
TEST(SlowCalls, ACallHandedOverWakesTheTakerAndOneHandedBeforeItSleepsKeepsItAwake) {
  using clock = std::chrono::steady_clock;
  std::vector<slow_call> calls;
  take_slow_calls(calls);
  const uint32_t seen = slow_calls_signal();
  std::thread hand([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    detail::hand_slow_call(unlimited_site, 1, 1, 2);
  });
  const auto start = clock::now();
  wait_for_slow_calls(seen, 60'000);
  EXPECT_LT(clock::now() - start, std::chrono::seconds(30));
  hand.join();
  calls.clear();
  take_slow_calls(calls);
  EXPECT_EQ(calls.size(), 1u);
  const auto again = clock::now();
  wait_for_slow_calls(seen, 60'000);  // the signal moved on since `seen`: no sleep
  EXPECT_LT(clock::now() - again, std::chrono::seconds(30));
}

}  // namespace
}  // namespace perf::runtime
