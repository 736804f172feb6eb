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
// The timed calls a site makes on a thread before its first review, and the most
// between two reviews (the interval grows with the timed calls).
constexpr uint64_t first_review = 64;
constexpr uint64_t longest_review_interval = 4096;
// A sampled site's untimed calls credit the median of the means of its last three
// blocks of recent_calls timed calls in the bulk (below): a median of means, robust
// to one block that a cold cache or an interrupt below the tail's threshold
// lengthened, and a change of the function's speed reaches the estimate within two
// blocks.
constexpr uint32_t recent_calls = 16;
// A sampled site's timed call is in its tail (slot::outliers) when it lasts longer
// than outlier_factor bulk means and outlier_floor_probes probe costs (a sampled leaf's
// mean is below two probe costs: a call of an exponential distribution with that mean
// goes past sixteen once in three thousand). Weighed by the sampling period, a call of a probe-dominated
// leaf that a preemption or an interrupt lengthened (or the cold caches after one)
// would add the wait up to a thousand times over: while the tail is rare (below
// frequent_tail_share of the timed calls, or fewer than least_frequent_tail calls) its
// calls are counted apart, once each.
// A frequent tail is the function's own (a slow path taken now and then): its share
// and mean are in the estimate.
constexpr double outlier_factor = 64;
constexpr double outlier_floor_probes = 16;
constexpr double frequent_tail_share = 1.0 / 256;
constexpr uint64_t least_frequent_tail = 8;

// Whether the tail of a slot with `timed` timed calls, `outliers` of them in its tail,
// is frequent enough to be the function's own.
bool frequent_tail(uint64_t outliers, uint64_t timed);

// The period for a leaf whose timed calls have a mean of `mean` ticks (compensated,
// or less the probe's inside cost `inside`), where a timed call costs `probe` ticks:
// 0 (every call timed) unless the leaf is probe-dominated (its mean below
// probe_dominated_factor probes); else the least that keeps timing within
// timing_share of its time, at most max_period.
uint32_t sampling_period(double mean, double inside, double probe);

// Reviews the timing of `target`, a site of `thread` (the calling thread's) whose
// timed calls reached its next_review: sets its period and its countdown, and, for
// a site not sampled yet, the estimate an untimed call adds to its caller (from its
// timed calls not counted apart). Called by drain_pending.
void review_timing(detail::thread_state& thread, detail::slot& target) noexcept;

// A countdown of a site sampled 1 in `period` calls on `thread` (owner only): a
// geometric number of calls with mean `period`, at least 1, from the thread's
// generator. detail::next_countdown draws it, except while a tracer is attached to the
// USDT probes (usdt_attached), when it gives 1: every call timed, so that each passes
// them; the probe's calibration draws it directly, whoever is attached.
uint32_t geometric_countdown(detail::thread_state& thread, uint32_t period) noexcept;

// Takes the duration (ticks) of a timed call of `target`, a sampled site of the
// calling thread: into its tail when it is longer than the site's outlier threshold,
// else into its current block, whose mean, every recent_calls calls, makes the bulk
// mean the median of the last three blocks' means; and sets the estimate its untimed
// calls credit: the bulk's mean, and the tail's share of it where the tail is
// frequent. Called by drain_pending.
void take_sampled_duration(detail::slot& target, uint64_t duration) noexcept;

// Stops sampling `target` for good: one of its timed calls had a measured callee.
void stop_sampling(detail::slot& target) noexcept;

// What a slot's calls sum to, in ticks, where some went untimed: its timed calls'
// sums (exact) and what its untimed calls credited their callers (each the estimate
// of its time when it was made), so that a leaf's total is its self time and a caller's
// self time and its sampled callees' add up to the caller's total. `variance` is the
// variance of the durations' estimated sum: the timed calls not counted apart are a
// random sample of the calls, C (C - n) s^2 / n for n of C calls (0 where every call
// was timed); the calls counted apart (a rare tail) are exact.
struct estimated_sums {
  double total = 0;
  double self = 0;
  double sum = 0;  // of the durations (every activation, as the mean)
  double variance = 0;
  uint64_t outliers = 0;   // timed calls counted apart
  double outlier_sum = 0;  // their durations
};
// Reads a slot its own thread may still be writing (fields read atomically).
estimated_sums estimate_sums(const detail::slot& s);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_MEASURE_ADAPTIVE_TIMING_HPP
