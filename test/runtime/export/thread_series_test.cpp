// /metrics while threads come and go: an exited thread leaves the per-thread
// series, its figures folded into one series per thread name, so that the page
// stays small and the sum of the per-thread counters stays exact and only grows.
#include <pthread.h>

#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "export/served_snapshot.hpp"
#include "perf/measure.hpp"

namespace perf::runtime {
namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr int thread_series_jobs = 1'000;  // a thread costs ten times more
#else
constexpr int thread_series_jobs = 10'000;
#endif

void job() { PERF_MEASURE("thread_series_test::job"); }

// `count` threads named "worker", one after the other, each making 10 measured calls.
void run_jobs(int count) {
  for (int j = 0; j < count; ++j)
    std::thread([] {
      pthread_setname_np(pthread_self(), "worker");
      for (int i = 0; i < 10; ++i) job();
    }).join();
}

std::string metrics_text() {
  metrics_page page(served_metrics(), metrics_format::prometheus);
  std::string text, piece(32768, '\0');
  while (const size_t n = page.read(piece.data(), piece.size())) text.append(piece.data(), n);
  return text;
}

// The sum of the samples of `name` (series of every label set).
uint64_t sum_of(const std::string& text, const std::string& name) {
  uint64_t sum = 0;
  for (size_t at = text.find("\n" + name + "{"); at != std::string::npos; at = text.find("\n" + name + "{", at + 1))
    sum += std::stoull(text.substr(text.find("} ", at) + 2));
  return sum;
}

TEST(ThreadSeries, ThreadsComeAndGoAndThePageStaysWithinASmallFactorOfItsSizeWithTen) {
  run_jobs(10);
  const std::string with_ten = metrics_text();
  EXPECT_EQ(sum_of(with_ten, "perf_thread_calls_total"), 100u);
  EXPECT_NE(with_ten.find("\nperf_thread_calls_total{tid=\"exited\",thread=\"worker\"} 100\n"), std::string::npos)
      << with_ten;

  run_jobs(thread_series_jobs - 10);
  const std::string after = metrics_text();
  EXPECT_EQ(sum_of(after, "perf_thread_calls_total"), 10u * thread_series_jobs);
  EXPECT_NE(after.find("\nperf_thread_calls_total{tid=\"exited\",thread=\"worker\"} " +
                       std::to_string(10 * thread_series_jobs) + "\n"),
            std::string::npos)
      << after.substr(0, 4000);
  EXPECT_LT(after.size(), with_ten.size() * 3 / 2) << after.substr(0, 4000);
  RecordProperty("page_bytes_with_ten", static_cast<int>(with_ten.size()));  // for docs/performance.md
  RecordProperty("page_bytes_after", static_cast<int>(after.size()));
}

}  // namespace
}  // namespace perf::runtime
