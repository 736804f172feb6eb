// The tick ring: what it keeps, what it drops, and reading it while it is written.
#include <gtest/gtest.h>
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "measure/probe_cost.hpp"
#include "measure/totals.hpp"
#include "perf/perf.hpp"
#include "ticklog/ticklog.hpp"

namespace perf::runtime {
namespace {

using detail::event_kind;

std::string label_of(const event_copy& e) { return std::string(e.label, e.label_length); }

TEST(TickRing, KeepsTheNewestEventsAndCountsTheOverwrittenOnes) {
  detail::tick_ring& ring = create_ring(16, 1)->ring;
  for (int i = 0; i < 20; ++i) {
    const std::string label = "event " + std::to_string(i);
    detail::log_tick(ring, 1000 + static_cast<uint64_t>(i), i, label.data(), label.size());
  }
  const ring_contents contents = copy_events(ring, true);
  ASSERT_EQ(contents.events.size(), 16u);
  EXPECT_EQ(contents.dropped, 4u);
  for (size_t k = 0; k < 16; ++k) {
    const event_copy& e = contents.events[k];
    EXPECT_EQ(e.kind, event_kind::tick);
    EXPECT_EQ(e.value, static_cast<int64_t>(k + 4));
    EXPECT_EQ(e.time, 1004 + k);
    EXPECT_EQ(label_of(e), "event " + std::to_string(k + 4));
  }
  const ring_counts counts = count_events(ring);
  EXPECT_EQ(counts.kept, 16u);
  EXPECT_EQ(counts.dropped, 4u);
}

TEST(TickRing, AReaderThatMayRaceTheWriterLeavesOutTheOldestSlot) {
  detail::tick_ring& ring = create_ring(16, 1)->ring;
  for (int i = 0; i < 40; ++i) detail::log_tick(ring, 1, i, nullptr, 0);
  const ring_contents contents = copy_events(ring, false);
  ASSERT_EQ(contents.events.size(), 15u);
  EXPECT_EQ(contents.events.front().value, 25);
  EXPECT_EQ(contents.dropped, 25u);
}

TEST(TickRing, LabelsAreCopiedAndCutAt63Bytes) {
  detail::tick_ring& ring = create_ring(16, 1)->ring;
  std::string label(100, 'x');
  label.replace(0, 10, "0123456789");
  detail::log_tick(ring, 1, 7, label.data(), label.size());
  label.assign(100, '!');  // the ring holds its own copy
  const ring_contents contents = copy_events(ring, true);
  ASSERT_EQ(contents.events.size(), 1u);
  EXPECT_EQ(label_of(contents.events[0]), "0123456789" + std::string(53, 'x'));
}

// A capture's window from 100 to 200, scopes looked for 50 beyond either edge: the
// window's events, the enters of the scopes open at 100 (B and D; C ended before it,
// A's enter lies beyond the margin) and the exits of those open at 200 (E and D; F
// began after it, A's exit lies beyond the margin). Ticks outside are left out.
TEST(TickRing, ACaptureWindowReadsTheScopesOpenAcrossItsEdgesAndNothingElseBeyondThem) {
  detail::tick_ring& ring = create_ring(64, 1)->ring;
  const auto enter = [&](uint64_t time, unsigned site) {
    detail::log_scope_event(ring, time, event_kind::enter, site);
  };
  const auto exit = [&](uint64_t time, unsigned site) { detail::log_scope_event(ring, time, event_kind::exit, site); };
  enter(10, 1);  // A
  enter(60, 2);  // B
  enter(70, 3);  // C
  exit(80, 3);
  detail::log_tick(ring, 85, 0, nullptr, 0);
  enter(90, 4);  // D
  detail::log_tick(ring, 100, 1, nullptr, 0);
  exit(130, 2);
  enter(150, 5);  // E
  detail::log_tick(ring, 200, 2, nullptr, 0);
  enter(210, 6);  // F
  exit(215, 6);
  exit(220, 5);
  exit(240, 4);
  detail::log_tick(ring, 245, 3, nullptr, 0);
  exit(300, 1);
  const ring_contents contents = copy_window(ring, 100, 200, 50, true);
  std::vector<std::pair<uint64_t, unsigned>> read;  // time, site (0: a tick)
  for (const event_copy& e : contents.events) read.emplace_back(e.time, e.site);
  EXPECT_EQ(read, (std::vector<std::pair<uint64_t, unsigned>>{
                      {60, 2}, {90, 4}, {100, 0}, {130, 2}, {150, 5}, {200, 0}, {220, 5}, {240, 4}}));
  EXPECT_EQ(contents.events[2].kind, event_kind::tick);
  EXPECT_EQ(contents.events[2].value, 1);
  EXPECT_EQ(contents.events[7].kind, event_kind::exit);
  EXPECT_EQ(contents.dropped, 0u);
}

TEST(TickRing, AReaderNeverSeesATornEventWhileTheOwnerLogs) {
  detail::tick_ring& ring = create_ring(256, 1)->ring;
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    for (int64_t i = 0; !stop.load(std::memory_order_relaxed); ++i) {
      const std::string label = std::to_string(i * 7919);
      detail::log_tick(ring, static_cast<uint64_t>(i), i, label.data(), label.size());
    }
  });
  while (count_events(ring).dropped == 0) std::this_thread::yield();  // the writer is lapping the ring
  uint64_t checked = 0;
  for (int pass = 0; pass < 300; ++pass) {
    const ring_contents contents = copy_events(ring, false);
    for (size_t k = 0; k < contents.events.size(); ++k) {
      const event_copy& e = contents.events[k];
      ASSERT_EQ(e.time, static_cast<uint64_t>(e.value));
      ASSERT_EQ(label_of(e), std::to_string(e.value * 7919));
      if (k != 0) { ASSERT_EQ(e.value, contents.events[k - 1].value + 1); }
    }
    checked += contents.events.size();
  }
  stop = true;
  writer.join();
  EXPECT_GT(checked, 0u);
}

const thread_ticks& ticks_of(const tick_view& view, long tid) {
  const auto found =
      std::find_if(view.threads.begin(), view.threads.end(), [&](const thread_ticks& t) { return t.tid == tid; });
  EXPECT_NE(found, view.threads.end());
  return *found;
}

TEST(Ticks, AMeasuredScopeLogsItsEnterAndExitAtTheClockValuesItsStatisticsUse) {
  long tid = 0;
  std::thread([&] {
    tid = static_cast<long>(gettid());
    {
      PERF_MEASURE("ticklog_test.scoped");
      perf::tick(7, "inside");
    }
    PERF_MEASURE_NO_TICKS("ticklog_test.quiet");
  }).join();

  const tick_view view = collect_ticks(nullptr);
  const std::vector<event_copy>& events = ticks_of(view, tid).contents.events;
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].kind, event_kind::enter);
  EXPECT_EQ(events[1].kind, event_kind::tick);
  EXPECT_EQ(events[1].value, 7);
  EXPECT_EQ(label_of(events[1]), "inside");
  EXPECT_EQ(events[2].kind, event_kind::exit);
  EXPECT_EQ(events[0].site, events[2].site);
  EXPECT_EQ(view.sites.at(events[0].site).name, "ticklog_test.scoped");

  // Less the probe's inside part, which the statistics leave out (measure/probe_cost.hpp).
  const compensation& c = current_compensation();
  const uint64_t inside_units = c.on ? static_cast<uint64_t>(std::llround(c.cost.inside * 256)) : 0;
  const uint64_t inside_ticks = c.on ? (inside_units + 128) >> detail::probe_fraction_bits : 0;
  const std::vector<accumulator> per_site = collect_site_totals();
  EXPECT_EQ(per_site.at(events[0].site).total + inside_ticks, events[2].time - events[0].time);
}

// The thread is named for the test alone: in a process where PERF_THREADS (64) threads
// have exited already (the whole test program in one process), its row is the one
// folded by name (tid 0), and holds its events alone.
TEST(Ticks, AThreadThatExitedKeepsItsEvents) {
  constexpr const char* name = "exited-ticks";
  long tid = 0;
  std::thread([&] {
    pthread_setname_np(pthread_self(), name);
    tid = static_cast<long>(gettid());
    for (int i = 0; i < 5; ++i) perf::tick(i);
  }).join();
  const tick_view view = collect_ticks(nullptr);
  const thread_ticks& thread = ticks_of(view, tid);
  ASSERT_EQ(thread.contents.events.size(), 5u);
  EXPECT_EQ(thread.contents.events[4].value, 4);
  const snapshot s = take_snapshot();
  const auto row = std::find_if(s.threads.begin(), s.threads.end(),
                                [&](const thread_stats& t) { return (t.tid == tid || t.tid == 0) && t.name == name; });
  ASSERT_NE(row, s.threads.end());
  EXPECT_TRUE(row->exited);
  EXPECT_EQ(row->threads, 1u);
  EXPECT_EQ(row->tick_events, 5u);
  EXPECT_EQ(row->tick_dropped, 0u);
}

}  // namespace
}  // namespace perf::runtime
