// Comparative micro-benchmarks: how much faster or slower candidates are than a
// reference, measured interleaved in one process, with a confidence interval.
//
//   perf::comparison c;
//   c.reference("std::sort", [&] { auto v = data; std::sort(v.begin(), v.end()); return v[0]; });
//   c.candidate("radix", [&] { auto v = data; radix_sort(v); return v[0]; });
//   perf::comparison_result r = c.run();
//   std::cout << r.table();            // r.ratio("radix"), r.interval("radix")
//
// How it measures: one batch size, calibrated once so that the fastest callable's
// batch lasts at least `batch_resolutions` clock resolutions, is shared by all. A round
// runs one batch of every callable, in an order balanced for carry-over (a Williams
// design) or freshly shuffled. Each round gives every candidate a paired log-ratio
// (its batch time over the reference's); the ratio is the median of those, its interval
// the sign test's (order statistics of the binomial distribution, no normality
// assumed), Bonferroni-corrected for the number of candidates. Rounds run until every
// interval is within ±precision of its ratio or the time budget is spent. Outlying
// rounds are counted (Tukey's far-out fences on the log-ratios), never dropped: the
// median needs no trimming.
//
// Needs C++17. Link perf::compare. A comparison is used by one thread at a time; the
// callables run on the thread that calls run() or series().
#ifndef PERF_COMPARE_HPP
#define PERF_COMPARE_HPP

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "perf/detail/compare_batch.hpp"
#include "perf/detail/compiler.hpp"

namespace perf {

enum class round_order {
  williams,  // each callable follows each other equally often (carry-over balanced)
  random,    // a fresh random permutation every round
};

enum class stop_reason {
  precision,  // every interval reached the target precision
  budget,     // the time budget ran out first
};

struct comparison_options {
  double confidence = 0.95;  // of each interval, after the correction for several candidates
  double precision = 0.01;   // stop once every interval lies within ratio × (1 ± precision)
  std::chrono::nanoseconds budget = std::chrono::seconds(3);  // for run(), calibration included
  std::size_t min_rounds = 50;                                // no stop for precision before this many rounds
  std::size_t warmup_rounds = 10;                             // rounds run after calibration and not recorded
  std::size_t batch_resolutions = 1000;                       // a batch lasts at least this many clock resolutions
  round_order order = round_order::williams;
  std::uint64_t seed = 1;      // of round_order::random
  bool check_results = false;  // run() first checks every candidate returns what the reference does
  // How many processes measure: above 1, run() re-executes the program
  // (/proc/self/exe, same arguments) processes - 1 times, one after the other, and each
  // child measures the comparison that is run() at the same position in its run
  // (the environment variable PERF_COMPARE_PROCESS tells it which). This exposes
  // code-layout and address-space effects; the result then has every process's ratios.
  // Costs `processes` budgets and the time the program takes to reach this run().
  int processes = 1;
  // Nanoseconds; empty means std::chrono::steady_clock. Tests inject a fake one.
  std::function<std::uint64_t()> clock;
};

struct ratio_interval {
  double lower;
  double upper;
};

// One callable's result.
struct compared {
  std::string name;
  bool is_reference = false;
  double ratio = 1;                     // median of the per-round ratios to the reference
  ratio_interval interval = {1, 1};     // [0, inf] while too few rounds for the confidence
  double ns_per_call = 0;               // median over rounds
  double spread = 0;                    // half the interquartile range of ns_per_call, relative
  std::size_t outlier_rounds = 0;       // rounds whose log-ratio is beyond the far-out fences
  std::vector<std::uint64_t> batch_ns;  // every recorded round's batch time, in round order
  std::vector<double> process_ratios;   // with options.processes > 1: this process's first
};

struct PERF_DETAIL_EXPORT comparison_result {
  std::vector<compared> rows;  // the reference first, then candidates in the order given
  std::size_t batch_calls = 0;
  std::size_t rounds = 0;
  stop_reason stop = stop_reason::budget;
  double confidence = 0;
  double precision = 0;

  // The row named `name`; throws std::out_of_range naming it when there is none.
  const compared& row(std::string_view name) const;
  double ratio(std::string_view name) const { return row(name).ratio; }
  ratio_interval interval(std::string_view name) const { return row(name).interval; }

  // An aligned table: name, ratio [interval], ns per call ± spread, outlier rounds,
  // the spread of ratios across processes (when measured), then rounds, batch size and
  // why it stopped.
  std::string table() const;
  // One line per callable, with a header line.
  std::string csv() const;
  std::string json() const;
};

// What series() measured: ns per call for batches of 10^exponent calls.
struct series_point {
  std::string name;
  unsigned exponent;
  std::uint64_t calls;  // 10^exponent
  unsigned sample;
  double ns_per_call;
};

struct PERF_DETAIL_EXPORT series_result {
  std::vector<series_point> points;  // by exponent, then sample, then callable
  std::string csv() const;           // name,exponent,calls,sample,ns_per_call
};

class PERF_DETAIL_EXPORT comparison {
 public:
  explicit comparison(comparison_options options = {});

  // The callable the others are compared with; exactly one. `fn()` may return a value:
  // it is kept (perf::keep), so the optimiser cannot drop the work. Names are unique.
  template <class F>
  comparison& reference(std::string name, F fn) {
    add(true, detail::make_entry(std::move(name), std::move(fn)));
    return *this;
  }
  template <class F>
  comparison& candidate(std::string name, F fn) {
    add(false, detail::make_entry(std::move(name), std::move(fn)));
    return *this;
  }

  // Measures. Throws std::logic_error without a reference and a candidate, and when
  // check_results finds a candidate whose result differs from the reference's (or
  // cannot be compared with it).
  comparison_result run();

  // The warm-up view: for exponent k = 0..max_exponent, `samples` batches of 10^k calls
  // of every callable, interleaved; every batch reported. No budget.
  series_result series(unsigned max_exponent, unsigned samples);

  const comparison_options& options() const { return options_; }

 private:
  void add(bool is_reference, detail::compare_entry entry);

  comparison_options options_;
  std::vector<detail::compare_entry> entries_;  // the reference first once it is given
  bool has_reference_ = false;
};

}  // namespace perf

#endif  // PERF_COMPARE_HPP
