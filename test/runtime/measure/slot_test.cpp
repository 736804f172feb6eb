// What one thread's slot records per call, read back the way a report reads it.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "measure/fake_thread.hpp"
#include "measure/stats.hpp"
#include "perf/detail/thread_state.hpp"

namespace perf::runtime {
namespace {

TEST(Slot, RecordsCountExtremesMomentsAndHistogram) {
  fake_thread thread;
  for (const uint64_t d : {100, 300, 200, 400}) thread.add(d);
  const accumulator a = thread.read();
  EXPECT_EQ(a.calls, 4u);
  EXPECT_EQ(a.min, 100u);
  EXPECT_EQ(a.max, 400u);
  EXPECT_DOUBLE_EQ(a.distribution.mean, 250.0);
  EXPECT_DOUBLE_EQ(a.distribution.variance(), 12500.0);
  EXPECT_EQ(a.durations.count(), 4u);
  // 100 has a bucket of its own; 200 and 300 lie in buckets 2 and 4 wide.
  EXPECT_EQ(a.durations.quantile(0.25), 100.0);
  EXPECT_EQ(a.durations.quantile(0.5), 201.0);
  EXPECT_EQ(a.durations.quantile(0.75), 302.0);
}

TEST(Slot, HistogramBlocksAreTakenFromTheArenaOnFirstUse) {
  fake_thread thread;
  thread.add(5);  // block 0: a site's first call is folded at once
  EXPECT_EQ(thread.state.arena_used, 2u);
  thread.add(6);     // block 0 again
  thread.add(5000);  // a later block
  EXPECT_EQ(thread.state.arena_used, 2u) << "later calls are folded in batches";
  thread.read();
  EXPECT_EQ(thread.state.arena_used, 3u);
  EXPECT_EQ(thread.target.blocks[0], 1u);
}

TEST(Slot, AFullArenaDropsHistogramCountsButNothingElse) {
  fake_thread thread;
  thread.state.arena_capacity = 2;  // room for one block only
  thread.add(5);
  thread.add(1u << 30);
  const accumulator a = thread.read();
  EXPECT_EQ(a.calls, 2u);
  EXPECT_EQ(a.max, uint64_t{1} << 30);
  EXPECT_EQ(a.durations.count(), 1u);
}

// Opens an activation of site `id` (its own row) as the probe does, from stack
// pointer `stack`, and sets its start to `start`.
void open_from(fake_thread& thread, unsigned id, uintptr_t stack, uint64_t start, detail::frame& f) {
  detail::open<false>(thread.state, detail::site_key(id, id), f, stack, thread.state.probe_offset);
  f.start = start;
}

// The site of the thread's innermost open activation, as the sampler reads it.
unsigned innermost_site(const fake_thread& thread) { return detail::enclosing_site(thread.state, 0); }

TEST(Slot, FinishChargesTheCallerAndCountsRecursionOnce) {
  fake_thread thread;
  detail::slot& other = thread.slots[0];
  detail::frame outer, inner, leaf;
  open_from(thread, 1, UINTPTR_MAX, 1000, outer);
  open_from(thread, 1, 1, 1100, inner);  // from below outer: inside it
  open_from(thread, 0, 0, 1150, leaf);   // from below inner
  EXPECT_EQ(innermost_site(thread), 0u);
  EXPECT_EQ(thread.state.depth, 4u) << "the entry above every stack, outer, inner, leaf";
  detail::finish(thread.state, leaf, 1170);  // 20 ticks in another function
  EXPECT_EQ(innermost_site(thread), 1u);
  detail::finish(thread.state, inner, 1200);  // 100 ticks, 20 of them in the callee
  detail::finish(thread.state, outer, 1500);  // 500 ticks, 100 of them in the inner activation
  thread.drain();
  EXPECT_EQ(innermost_site(thread), 0u);
  EXPECT_EQ(thread.state.depth, 1u);
  EXPECT_EQ(thread.target.timed, 2u);
  EXPECT_EQ(thread.target.total, 500u);  // the outermost activation only
  EXPECT_EQ(thread.target.self, 480u);   // 80 + 400: everything but the other function's 20
  EXPECT_EQ(other.self, 20u);
  EXPECT_EQ(thread.target.outermost, nullptr);
  EXPECT_EQ(other.outermost, nullptr);
}

// An activation a longjmp abandoned is never closed. The next activation of its row
// at its very address closes in its place; one from above it takes its place.
TEST(Slot, AnAbandonedOutermostActivationIsReplaced) {
  fake_thread thread;
  detail::frame abandoned, next;
  const uintptr_t at_abandoned = reinterpret_cast<uintptr_t>(&abandoned);
  open_from(thread, 1, at_abandoned, 1000, abandoned);
  open_from(thread, 1, at_abandoned, 1100, next);  // a stack pointer at the frame: not above it
  EXPECT_EQ(thread.target.outermost, &abandoned);
  detail::finish(thread.state, next, 1150);
  EXPECT_EQ(thread.target.total, 0u) << "an inner activation";
  open_from(thread, 1, 0, 1200, abandoned);  // again at the abandoned frame's own address
  detail::finish(thread.state, abandoned, 1210);
  EXPECT_EQ(thread.target.total, 10u);
  open_from(thread, 1, at_abandoned, 1300, abandoned);  // abandoned again
  open_from(thread, 1, at_abandoned + 1, 1400, next);
  EXPECT_EQ(thread.target.outermost, &next);
  detail::finish(thread.state, next, 1450);
  thread.drain();
  EXPECT_EQ(thread.target.total, 60u);
  EXPECT_EQ(thread.target.timed, 3u);
}

TEST(Slot, ABatchIsDrainedWhenItIsFull) {
  fake_thread thread;
  thread.add(10);
  EXPECT_EQ(thread.state.pending_count, 0u) << "a site's first call is folded at once";
  for (unsigned i = 0; i < detail::pending_capacity - 1; ++i) thread.add(10);
  EXPECT_EQ(thread.state.pending_count, detail::pending_capacity - 1);
  EXPECT_EQ(thread.target.timed, 1u);
  thread.add(10);
  EXPECT_EQ(thread.state.pending_count, 0u);
  EXPECT_EQ(thread.target.timed, detail::pending_capacity + 1);
  EXPECT_EQ(thread.arena[thread.target.blocks[0] * detail::histogram_block_size + 10], detail::pending_capacity + 1);
}

// A living thread's calls not yet folded into its slot are read from its buffer:
// their count, extremes, moments and buckets.
TEST(Slot, PendingCallsAreReadWithoutDraining) {
  fake_thread thread;
  thread.add(7);  // folded at once
  thread.add(9);
  thread.add(2);
  std::vector<accumulator> per_site(2);
  add_pending_durations(thread.state, per_site);
  EXPECT_EQ(per_site[1].durations.count(), 0u) << "no call counted for the site yet";
  bucket_tally tally;
  per_site[1].add(thread.target, thread.arena.data(), tally);
  tally.move_to(per_site[1].durations);
  EXPECT_EQ(per_site[1].calls, 1u);
  add_pending_durations(thread.state, per_site);
  EXPECT_EQ(thread.state.pending_count, 2u);
  EXPECT_EQ(per_site[1].calls, 3u);
  EXPECT_EQ(per_site[1].timed, 3u);
  EXPECT_EQ(per_site[1].durations.count(), 3u);
  EXPECT_EQ(per_site[1].durations.quantile(1.0), 9.0);
  EXPECT_EQ(per_site[1].min, 2u);
  EXPECT_EQ(per_site[1].max, 9u);
  EXPECT_DOUBLE_EQ(per_site[1].distribution.mean, 6.0);
  EXPECT_DOUBLE_EQ(per_site[1].distribution.variance(), 26.0 / 3);
  EXPECT_DOUBLE_EQ(per_site[1].estimated.sum, 18.0);
}

// A site that times every call (the _TIME_ALL forms) is left alone by adaptive timing:
// its calls never make it a sampled site, whatever its durations.
TEST(Slot, ASiteThatTimesEveryCallIsNeverReviewedForSampling) {
  fake_thread thread;
  thread.state.sampling = 1;
  for (unsigned i = 0; i < 4 * detail::pending_capacity; ++i)
    detail::add_sample(thread.state, thread.target, 1, 1, detail::pending_time_all_bit);
  thread.drain();
  EXPECT_EQ(thread.target.timed, 4 * detail::pending_capacity);
  EXPECT_EQ(thread.target.next_review, 0u);
  EXPECT_EQ(thread.target.period, 0u);
  EXPECT_EQ(thread.target.bulk_mean, 0u);
  for (unsigned i = 0; i < 4 * detail::pending_capacity; ++i) thread.add(1);
  thread.drain();
  EXPECT_NE(thread.target.next_review, 0u) << "the same calls, from a site that may be sampled, are reviewed";
}

// The fixed latency buckets (100 ns, 300 ns, 1 us, ...) counted from the slot and its
// pending durations are those of the report's histogram, bucket for bucket.
TEST(Slot, BinnedTotalsCountTheFixedBucketsAsTheHistogramDoes) {
  const latency_binning binning(1.0);  // a tick is a nanosecond
  fake_thread thread;
  for (const uint64_t d : {50ull, 100ull, 101ull, 250ull, 299ull, 5000ull, 20000000000ull}) thread.add(d);
  const accumulator histogram = thread.read();
  thread.add(120);  // pending: not yet in the arena
  binned_totals binned;
  binned.add(thread.target, thread.arena.data(), binning);
  std::vector<binned_totals> per_site(2, binned);
  add_pending_durations(thread.state, per_site, binning);
  // 50 and 100 (exact buckets) at most 100 ns; 101 (exact), 250 and 299 (buckets whose
  // midpoints are 251 and 298) at most 300 ns; 5000 at most 10 us; 20 s above every bound.
  const std::array<uint64_t, latency_binning::bounds + 1> expected = {2, 3, 0, 0, 1, 0, 0, 0, 0,
                                                                      0, 0, 0, 0, 0, 0, 0, 0, 1};
  EXPECT_EQ(binned.latency, expected);
  EXPECT_EQ(binning.cumulative(histogram.durations.nonzero_buckets()),
            (std::vector<uint64_t>{2, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6}));
  EXPECT_EQ(per_site[1].latency[1], 4u) << "the pending 120 ns counted at most 300 ns";
  EXPECT_EQ(binned.calls, 7u);
  EXPECT_EQ(per_site[1].calls, 8u);
  EXPECT_EQ(per_site[1].max, 20000000000u);
}

TEST(Slot, AClockThatStepsBackCountsZero) {
  fake_thread thread;
  detail::frame f;
  open_from(thread, 1, UINTPTR_MAX, 1000, f);
  detail::finish(thread.state, f, 990);
  EXPECT_EQ(thread.target.timed, 1u);
  EXPECT_EQ(thread.target.total, 0u);
  EXPECT_EQ(thread.target.max, 0u);
}

}  // namespace
}  // namespace perf::runtime
