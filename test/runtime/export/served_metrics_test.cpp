// /metrics read from the running totals (served_metrics) is the page the general
// snapshot gives (metrics_page of served_snapshot): the same series, values and
// order, to the byte.
#include "export/served_counters.hpp"
#include "export/served_snapshot.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "measure/busy_loop.hpp"
#include "perf/measure.hpp"
#include "sampler/sampler.hpp"

namespace perf::runtime {
namespace {

using perf::testing::spin_for;

// Two instantiations: two sites with one name and location, one row.
constexpr unsigned shared_line = __LINE__ + 3;
template <int N>
void shared_row() {
  PERF_MEASURE("served_test::shared_row<\"N\">\\\n\xff");
  spin_for(std::chrono::microseconds(N));
}

void short_and_long(int i) {
  PERF_MEASURE("served_test::short_and_long");
  spin_for(std::chrono::microseconds(i % 10 == 0 ? 40 : 1));
}

void work(int calls) {
  for (int i = 0; i < calls; ++i) {
    short_and_long(i);
    if (i % 2 == 0) shared_row<2>();
    else shared_row<5>();
  }
}

std::string page_of(metrics_page page) {
  std::string text, piece(32768, '\0');
  while (const size_t n = page.read(piece.data(), piece.size())) text.append(piece.data(), n);
  return text;
}

TEST(ServedMetrics, TheSamePageAsTheGeneralSnapshotGives) {
  // Threads that exited (their totals merged) and threads that still run, each with
  // durations waiting to be bucketed (100 calls: 36 of each function pending).
  constexpr int calls = 100, exited = 3, living = 2;
  std::vector<std::thread> threads;
  for (int t = 0; t < exited; ++t) threads.emplace_back(work, calls);
  for (std::thread& t : threads) t.join();
  threads.clear();
  std::mutex mutex;
  std::condition_variable changed;
  int ready = 0;
  bool done = false;
  for (int t = 0; t < living; ++t)
    threads.emplace_back([&] {
      work(calls);
      std::unique_lock lock(mutex);
      ++ready;
      changed.notify_all();
      changed.wait(lock, [&] { return done; });
    });
  {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return ready == living; });
  }
  work(calls);

  std::string general_text, fast_text;
  {
    const sampling_pause paused;  // no sample of this thread lands between the two reads
    const snapshot general = served_snapshot();
    metrics_content fast = served_metrics();
    // This thread's allocation counters count the reads' own allocations.
    fast.counts.allocations = general.allocations;
    for (metrics_format format : {metrics_format::prometheus, metrics_format::openmetrics}) {
      general_text = page_of(metrics_page(general, format));
      fast_text = page_of(metrics_page(fast, format));
      EXPECT_EQ(fast_text, general_text);
    }
  }
  {
    const std::lock_guard lock(mutex);
    done = true;
  }
  changed.notify_all();
  for (std::thread& t : threads) t.join();

  const std::string shared = R"(function="served_test::shared_row<\"N\">\\\n)"
                             "\xEF\xBF\xBD"
                             R"(",file=")" __FILE__ R"(",line=")" +
                             std::to_string(shared_line) + "\"";
  constexpr int all_calls = calls * (exited + living + 1);
  EXPECT_NE(fast_text.find("\nperf_function_calls_total{" + shared + "} " + std::to_string(all_calls) + "\n"),
            std::string::npos)
      << "both instantiations in one row\n"
      << fast_text.substr(0, 4000);
  EXPECT_NE(
      fast_text.find("\nperf_function_duration_seconds_count{" + shared + "} " + std::to_string(all_calls) + "\n"),
      std::string::npos);
  const std::string short_and_long = "function=\"served_test::short_and_long\"";
  EXPECT_NE(fast_text.find("\nperf_function_calls_total{" + short_and_long), std::string::npos);
  // A tenth of the calls took 40 us or more: the bucket of 30 us holds at most the rest.
  const size_t at = fast_text.find("\nperf_function_duration_seconds_bucket{" + short_and_long);
  ASSERT_NE(at, std::string::npos);
  const size_t bound = fast_text.find(",le=\"3e-05\"} ", at);
  ASSERT_NE(bound, std::string::npos);
  EXPECT_LE(std::stoull(fast_text.substr(bound + 13)), uint64_t{all_calls} * 9 / 10);
  const size_t inf = fast_text.find(",le=\"+Inf\"} ", at);
  ASSERT_NE(inf, std::string::npos);
  EXPECT_EQ(std::stoull(fast_text.substr(inf + 12)), uint64_t{all_calls});
}

TEST(ServedMetrics, ACounterThatDipsIsServedAtItsHighestSoFar) {
  // A self time whose signed parts took it from 5 down to 3: a scrape that served 5
  // serves 5 again, not the decrease Prometheus would read as a restart.
  served_counters self_times;
  EXPECT_EQ(self_times.serve(2, 5.0), 5.0);
  EXPECT_EQ(self_times.serve(2, 3.0), 5.0);
  EXPECT_EQ(self_times.serve(2, 7.5), 7.5);
  EXPECT_EQ(self_times.serve(0, 1.0), 1.0);  // rows apart
  EXPECT_EQ(self_times.serve(2, 7.0), 7.5);
}

}  // namespace
}  // namespace perf::runtime
