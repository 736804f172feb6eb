// perf-report on a large report: 10,000 functions x 16 threads, each function with
// a histogram as wide as a real one (about 40 buckets). Times reading two such
// reports, diffing them, and writing the HTML page, in one process; the goal is
// under 1 s each and a page under 5 MB (docs/performance.md, "perf-report").
//   perf_report_bench [FUNCTIONS] [THREADS]
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include <fmt/format.h>

#include "command_line.hpp"
#include "diff.hpp"
#include "html.hpp"
#include "parsed_report.hpp"
#include "perf/detail/histogram_index.hpp"
#include "perf/report.hpp"

namespace {

using perf::perf_report::report;

// The JSON report of `functions` functions on `threads` threads; `slowdown` scales
// every tenth function's durations.
std::string synthetic_report(unsigned functions, unsigned threads, unsigned seed, double slowdown) {
  std::mt19937_64 random(seed);
  std::lognormal_distribution<double> spread(0, 0.35);
  nlohmann::json rows = nlohmann::json::array();
  for (unsigned i = 0; i < functions; ++i) {
    const double typical = 50.0 * std::pow(1.0007, i) * (i % 10 == 0 ? slowdown : 1.0);  // ns, at 2 GHz: x2 ticks
    const uint64_t calls = 1000 + (i * 7919u) % 20000;
    std::map<unsigned, uint64_t> buckets;
    double sum = 0, squares = 0, low = 1e300, high = 0;
    for (unsigned k = 0; k < 200; ++k) {  // 200 draws stand for the calls, weighted
      const double ns = typical * spread(random);
      const uint64_t weight = calls / 200 + (k < calls % 200 ? 1 : 0);
      buckets[perf::detail::bucket_index(static_cast<uint64_t>(ns * 2))] += weight;
      sum += ns * static_cast<double>(weight);
      squares += ns * ns * static_cast<double>(weight);
      low = std::min(low, ns), high = std::max(high, ns);
    }
    const double mean = sum / static_cast<double>(calls);
    nlohmann::json histogram = nlohmann::json::array();
    for (const auto& [b, n] : buckets) histogram.push_back({b, n});
    rows.push_back({{"name", fmt::format("app::module{}::function{}", i / 100, i)},
                    {"file", fmt::format("/src/app/module{}.cpp", i / 100)},
                    {"line", 10 + i % 100 * 20},
                    {"calls", calls},
                    {"total_ns", sum},
                    {"self_ns", sum / 2},
                    {"mean_ns", mean},
                    {"min_ns", low},
                    {"max_ns", high},
                    {"stddev_ns", 0},
                    {"p50_ns", 0},
                    {"p90_ns", 0},
                    {"p99_ns", 0},
                    {"p999_ns", 0},
                    {"alloc_count", 1.0},
                    {"alloc_bytes", 64.0},
                    {"moments", {{"mean_ns", mean}, {"m2_ns2", std::max(0.0, squares - sum * mean)}}},
                    {"alloc_total_count", calls},
                    {"alloc_total_bytes", 64 * calls},
                    {"histogram", std::move(histogram)}});
  }
  nlohmann::json thread_rows = nlohmann::json::array();
  for (unsigned t = 0; t < threads; ++t)
    thread_rows.push_back({{"tid", 1000 + t},
                           {"name", fmt::format("worker{}", t)},
                           {"calls", 123456},
                           {"exited", false},
                           {"tick_events", 65536},
                           {"tick_dropped", 0}});
  return nlohmann::json{
      {"schema_version", perf::json_schema_version},
      {"pid", 1000},
      {"clock", {{"source", "rdtsc"}, {"ghz", 2.0}, {"frequency", "calibrated"}, {"resolution_ns", 10.0}}},
      {"functions", std::move(rows)},
      {"threads", std::move(thread_rows)}}
      .dump();
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  const unsigned functions = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 10000;
  const unsigned threads = argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : 16;
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / fmt::format("perf-report-bench-{}", getpid());
  std::filesystem::create_directories(dir);
  const std::string base = (dir / "base.json").string(), now = (dir / "new.json").string(),
                    page = (dir / "report.html").string(), diff_page = (dir / "diff.html").string();
  std::ofstream(base) << synthetic_report(functions, threads, 1, 1.0);
  std::ofstream(now) << synthetic_report(functions, threads, 2, 1.3);

  auto start = std::chrono::steady_clock::now();
  const nlohmann::json plain = nlohmann::json::parse(std::ifstream(base));
  const double parse_only = seconds_since(start);

  // The commands as a user runs them, output to files.
  std::ostringstream out, err;
  start = std::chrono::steady_clock::now();
  int status = perf::perf_report::run_command_line({"diff", base, now, "-o", (dir / "diff.txt").string()}, out, err);
  const double diff_seconds = seconds_since(start);
  start = std::chrono::steady_clock::now();
  status |= perf::perf_report::run_command_line({"html", base, "-o", page}, out, err);
  const double html_seconds = seconds_since(start);
  start = std::chrono::steady_clock::now();
  status |= perf::perf_report::run_command_line({"diff", base, now, "--format", "html", "-o", diff_page}, out, err);
  const double diff_html_seconds = seconds_since(start);
  if (status != 0) {
    std::fprintf(stderr, "%s", err.str().c_str());
    return 1;
  }
  std::printf("report of %u functions x %u threads: %.1f MB of JSON; nlohmann::json::parse alone %.3f s\n", functions,
              threads, static_cast<double>(std::filesystem::file_size(base)) / 1e6, parse_only);
  std::printf("perf-report diff (two reports, text):  %.3f s (%.1fx the parse of one)\n", diff_seconds,
              diff_seconds / parse_only);
  std::printf("perf-report html (one report):         %.3f s (%.1fx), page %.2f MB\n", html_seconds,
              html_seconds / parse_only, static_cast<double>(std::filesystem::file_size(page)) / 1e6);
  std::printf("perf-report diff --format html:        %.3f s (%.1fx), page %.2f MB\n", diff_html_seconds,
              diff_html_seconds / parse_only, static_cast<double>(std::filesystem::file_size(diff_page)) / 1e6);
  std::printf("verdict: %s", out.str().c_str());
  const bool met = diff_seconds < 1 && html_seconds < 1 && std::filesystem::file_size(page) < 5'000'000 &&
                   plain.at("functions").size() == functions;
  std::filesystem::remove_all(dir);
  return met ? 0 : 1;
}
