// How honest perf::compare's intervals are on this machine (docs/comparisons.md):
//   compare_honesty aa     RUNS BUDGET_MS [BENCHMARK_RUNS]  two identical workloads: how often the interval excludes 1
//   compare_honesty slow3  RUNS BUDGET_MS [BENCHMARK_RUNS]  a 3% longer workload: how often the interval lies above 1
//   compare_honesty double RUNS BUDGET_MS [BENCHMARK_RUNS]  a twice as long workload: how often the ratio is 2 ± 0.1
// and, BENCHMARK_RUNS times (default RUNS), the same with Google Benchmark the way its
// compare.py judges: two runs one after the other (10 repetitions each, half the budget
// each), Mann-Whitney U test at 0.05.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "compare/workload.hpp"
#include "perf/compare.hpp"

namespace {

struct experiment {
  std::uint64_t reference_iterations;
  std::uint64_t candidate_iterations;
};

// Collects the per-repetition times of one Google Benchmark run, printing nothing.
class collector : public benchmark::BenchmarkReporter {
 public:
  std::vector<double> times;
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs)
      if (run.run_type == Run::RT_Iteration) times.push_back(run.GetAdjustedRealTime());
  }
};

std::vector<double> google_benchmark_run(std::uint64_t iterations, double seconds) {
  benchmark::ClearRegisteredBenchmarks();
  benchmark::RegisterBenchmark("workload",
                               [iterations](benchmark::State& state) {
                                 for (auto _ : state) benchmark::DoNotOptimize(mix(iterations));
                               })
      ->Repetitions(10)
      ->MinTime(seconds / 10);
  collector times;
  benchmark::RunSpecifiedBenchmarks(&times);
  return times.times;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// Two-sided p-value of the Mann-Whitney U test, normal approximation with tie and
// continuity corrections (what scipy.stats.mannwhitneyu gives for larger samples).
double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<std::pair<double, int>> all;
  for (double value : a) all.push_back({value, 0});
  for (double value : b) all.push_back({value, 1});
  std::sort(all.begin(), all.end());
  const double n1 = static_cast<double>(a.size()), n2 = static_cast<double>(b.size()), n = n1 + n2;
  double rank_sum_a = 0, tie_term = 0;
  for (std::size_t i = 0; i < all.size();) {
    std::size_t j = i;
    while (j < all.size() && all[j].first == all[i].first) ++j;
    const double rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
    for (std::size_t k = i; k < j; ++k)
      if (all[k].second == 0) rank_sum_a += rank;
    const double ties = static_cast<double>(j - i);
    tie_term += ties * ties * ties - ties;
    i = j;
  }
  const double u = rank_sum_a - n1 * (n1 + 1) / 2;
  const double mean = n1 * n2 / 2;
  const double sd = std::sqrt(n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1))));
  const double z = (std::abs(u - mean) - 0.5) / sd;
  return std::erfc(z / std::sqrt(2.0));
}

double percentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  return values[static_cast<std::size_t>(p * static_cast<double>(values.size() - 1) + 0.5)];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 && argc != 5) {
    std::fprintf(stderr, "usage: %s aa|slow3|double RUNS BUDGET_MS [BENCHMARK_RUNS]\n", argv[0]);
    return 2;
  }
  const std::string name = argv[1];
  const int runs = std::atoi(argv[2]);
  const auto budget = std::chrono::milliseconds(std::atoi(argv[3]));
  const int benchmark_runs = argc == 5 ? std::atoi(argv[4]) : runs;
  if (runs < 1 || budget.count() < 1 || benchmark_runs < 1) {
    std::fprintf(stderr, "%s: RUNS, BUDGET_MS and BENCHMARK_RUNS must be positive numbers\n", argv[0]);
    return 2;
  }
  constexpr std::uint64_t base = 200;
  experiment chosen{};
  if (name == "aa") chosen = {base, base};
  else if (name == "slow3") chosen = {base, base * 103 / 100};
  else if (name == "double") chosen = {base, 2 * base};
  else {
    std::fprintf(stderr, "%s: unknown experiment '%s' (aa, slow3 or double)\n", argv[0], name.c_str());
    return 2;
  }
  int benchmark_argc = 1;
  benchmark::Initialize(&benchmark_argc, argv);

  int compare_hits = 0, benchmark_hits = 0, budget_stops = 0;
  std::vector<double> compare_ratios, benchmark_ratios, rounds, seconds;
  for (int run = 0; run < runs; ++run) {
    perf::comparison_options options;
    options.budget = budget;
    perf::comparison c(options);
    // One closure type for both in A/A: the very same machine code.
    auto workload = [](std::uint64_t iterations) { return [iterations] { return mix(iterations); }; };
    c.reference("reference", workload(chosen.reference_iterations));
    c.candidate("candidate", workload(chosen.candidate_iterations));
    const auto start = std::chrono::steady_clock::now();
    const perf::comparison_result result = c.run();
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    const perf::ratio_interval interval = result.interval("candidate");
    const double ratio = result.ratio("candidate");
    compare_ratios.push_back(ratio);
    rounds.push_back(static_cast<double>(result.rounds));
    budget_stops += result.stop == perf::stop_reason::budget;
    if (name == "aa") compare_hits += interval.lower > 1 || interval.upper < 1;
    else if (name == "slow3") compare_hits += interval.lower > 1;
    else compare_hits += std::abs(ratio - 2) <= 0.1;
  }
  for (int run = 0; run < benchmark_runs; ++run) {
    const double half = std::chrono::duration<double>(budget).count() / 2;
    const std::vector<double> a = google_benchmark_run(chosen.reference_iterations, half);
    const std::vector<double> b = google_benchmark_run(chosen.candidate_iterations, half);
    const double benchmark_ratio = median(b) / median(a);
    const bool different = mann_whitney_p(a, b) < 0.05;
    benchmark_ratios.push_back(benchmark_ratio);

    if (name == "aa") benchmark_hits += different;
    else if (name == "slow3") benchmark_hits += different && benchmark_ratio > 1;
    else benchmark_hits += std::abs(benchmark_ratio - 2) <= 0.1;
  }
  const char* what = name == "aa"      ? "intervals excluding 1 (false positives)"
                     : name == "slow3" ? "slowdowns detected (interval above 1; U test p < 0.05)"
                                       : "ratios within 2 ± 0.1";
  std::printf("%s: %d runs, budget %lld ms, %s\n", name.c_str(), runs, static_cast<long long>(budget.count()), what);
  std::printf(
      "  perf::compare     %3d/%d (%.1f%%)  ratio median %.4f [2.5%%: %.4f, 97.5%%: %.4f]; "
      "%d stopped by budget; rounds median %.0f; %.3f s per comparison (median)\n",
      compare_hits, runs, 100.0 * compare_hits / runs, median(compare_ratios), percentile(compare_ratios, 0.025),
      percentile(compare_ratios, 0.975), budget_stops, median(rounds), median(seconds));
  std::printf("  google benchmark  %3d/%d (%.1f%%)  ratio median %.4f [2.5%%: %.4f, 97.5%%: %.4f]\n", benchmark_hits,
              benchmark_runs, 100.0 * benchmark_hits / benchmark_runs, median(benchmark_ratios),
              percentile(benchmark_ratios, 0.025), percentile(benchmark_ratios, 0.975));
  return 0;
}
