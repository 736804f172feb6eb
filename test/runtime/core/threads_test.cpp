// Many threads: exact totals, data of exited threads kept, snapshots while running.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "perf/perf.hpp"
#include "snapshot_lookup.hpp"

namespace perf {
namespace {

using testing::stats_of;

void work() { PERF_MEASURE("threads_test.work"); }

TEST(Threads, CountsAreExactAcrossManyThreadsThatHaveExited) {
  constexpr int threads = 16, calls = 10000;
  std::vector<long> tids(threads);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&tids, t] {
      tids[static_cast<size_t>(t)] = static_cast<long>(gettid());
      for (int i = 0; i < calls; ++i) work();
    });
  for (std::thread& w : workers) w.join();

  EXPECT_EQ(stats_of("threads_test.work").calls, uint64_t{threads} * calls);
  const snapshot s = take_snapshot();
  // Every worker is listed, exited, with its own calls.
  for (const long tid : tids) {
    const auto row =
        std::find_if(s.threads.begin(), s.threads.end(), [&](const thread_stats& t) { return t.tid == tid; });
    ASSERT_NE(row, s.threads.end()) << tid;
    EXPECT_TRUE(row->exited);
    EXPECT_EQ(row->calls, uint64_t{calls});
  }
}

void churn() { PERF_MEASURE("threads_test.churn"); }

TEST(Threads, SnapshotsWhileThreadsComeAndGoLoseNothing) {
  std::atomic<bool> done{false};
  std::thread reader([&] {
    while (!done.load()) take_snapshot();
  });
  for (int round = 0; round < 20; ++round) {
    std::vector<std::thread> workers;
    for (int t = 0; t < 4; ++t)
      workers.emplace_back([] {
        for (int i = 0; i < 500; ++i) churn();
      });
    for (std::thread& w : workers) w.join();
  }
  done = true;
  reader.join();
  EXPECT_EQ(stats_of("threads_test.churn").calls, 20u * 4 * 500);
}

void waiting_work() { PERF_MEASURE("threads_test.waiting_work"); }

TEST(Threads, ALivingThreadIsIncludedInTheSnapshot) {
  std::mutex mutex;
  std::condition_variable changed;
  bool calls_made = false, may_exit = false;
  std::thread worker([&] {
    for (int i = 0; i < 5; ++i) waiting_work();
    std::unique_lock lock(mutex);
    calls_made = true;
    changed.notify_all();
    changed.wait(lock, [&] { return may_exit; });
  });
  {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return calls_made; });
  }
  EXPECT_EQ(stats_of("threads_test.waiting_work").calls, 5u);
  {
    std::lock_guard lock(mutex);
    may_exit = true;
  }
  changed.notify_all();
  worker.join();
  EXPECT_EQ(stats_of("threads_test.waiting_work").calls, 5u);
}

void running_work() { PERF_MEASURE("threads_test.running_work"); }

// A thread still making calls while it is read (as at exit, where the exit report
// reads the threads the program left running): each reading's count agrees with
// its histogram, as perf-report checks of a report.
TEST(Threads, ASnapshotOfARunningThreadCountsItsCallsAsItsHistogramDoes) {
  std::atomic<bool> started{false}, done{false};
  std::thread worker([&] {
    running_work();
    started = true;
    while (!done.load(std::memory_order_relaxed)) running_work();
  });
  while (!started.load()) std::this_thread::yield();
  int disagreeing = 0;
  for (int reading = 0; reading < 200; ++reading) {
    const function_stats f = stats_of("threads_test.running_work");
    uint64_t histogram = 0;
    for (const auto& [bucket, count] : f.histogram) histogram += count;
    if (f.timed_calls != histogram) ++disagreeing;
  }
  done = true;
  worker.join();
  EXPECT_EQ(disagreeing, 0) << "of 200 readings";
}

}  // namespace
}  // namespace perf
