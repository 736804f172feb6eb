// Adaptive timing (PERF_TIMING; docs/performance.md, "Adaptive timing"): which calls
// of a measured leaf are timed, and what the report estimates from them.
//
// Every call is counted. A site is timed on every call until its timed calls show it
// probe-dominated on a thread; from then on that thread times a random sample of its
// calls, 1 in `period` on average (geometric countdowns: no period the program's
// loops can alias with), and counts the others (untimed_call). Only leaves are
// sampled: sites none of whose timed calls on the thread had a measured callee. The
// decisions are the owner thread's, taken when it drains its pending durations.
#ifndef PERF_RUNTIME_MEASURE_ADAPTIVE_TIMING_HPP
#define PERF_RUNTIME_MEASURE_ADAPTIVE_TIMING_HPP

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "perf/detail/thread_state.hpp"

namespace perf::runtime {

struct timing_config {
  bool adaptive = true;  // PERF_TIMING: adaptive (the default) or all
  // One line per value that could not be used, naming the variable.
  std::vector<std::string> warnings;
};

// Reads PERF_TIMING through `getenv_fn`; a null result means unset.
timing_config parse_timing_config(const std::function<const char*(const char*)>& getenv_fn);

// This process's PERF_TIMING, settled at start-up. Thread-safe.
const timing_config& current_timing_config();

// The most calls a sampled site lets pass per timed one, on average.
constexpr uint32_t max_period = 1024;
// The share of a sampled function's own time that timing its sampled calls may add.
constexpr double timing_share = 0.01;
// The timed calls a site makes on a thread before its first review; the timed calls
// of a new stratum before the next one (its estimate from them), and the most between
// two reviews (the interval doubles with the stratum).
constexpr uint64_t first_review = 64;
constexpr uint64_t least_stratum = 8;
constexpr uint64_t longest_review_interval = 4096;

// The period for a leaf whose timed calls have a mean of `mean` ticks (compensated,
// or less the probe's inside cost `inside`), where a timed call costs `probe` ticks:
// 0 (every call timed) unless the leaf is probe-dominated (its mean below
// probe_dominated_factor probes); else the least that keeps timing within
// timing_share of its time, at most max_period.
uint32_t sampling_period(double mean, double inside, double probe);

// Reviews the timing of `target`, a site of `thread` (the calling thread's) whose
// timed calls reached its next_review: sets its period, its countdown and the
// estimate an untimed call adds to its caller, closing its stratum when the period
// changes. Called by drain_pending.
void review_timing(detail::thread_state& thread, detail::slot& target) noexcept;

// Stops sampling `target` for good: one of its timed calls had a measured callee.
void stop_sampling(detail::slot& target) noexcept;

// What a slot's timed calls estimate of all its calls, in ticks: the total and the
// durations' sum of the closed strata and the current one's, each stratum's timed
// sums scaled by its calls over its timed calls (exact where every call was timed),
// and the variance of the durations' estimated sum (the finite-population correction
// makes it 0 there). The self time is the timed calls' own plus what the untimed
// ones added to their callers' callee time (the estimate of the review before each),
// so that the self times of a caller and of its sampled callees add up to the
// caller's total.
struct estimated_sums {
  double total = 0;
  double self = 0;
  double sum = 0;  // of the durations (every activation, as the mean)
  double variance = 0;
};
// Reads a slot its own thread may still be writing (fields read atomically).
estimated_sums estimate_sums(const detail::slot& s);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_MEASURE_ADAPTIVE_TIMING_HPP
