// Adaptive timing: PERF_TIMING, the reviews that choose a site's sampling period, the
// countdowns' random draws, the running estimate of a sampled site's calls, and the
// sums it gives.
#include "measure/adaptive_timing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string_view>

#include "core/random_bits.hpp"
#include "core/settled_config.hpp"
#include "core/startup.hpp"
#include "core/threads.hpp"
#include "measure/probe_cost.hpp"
#include "measure/stats.hpp"
#include "measure/usdt_probes.hpp"
#include "perf/detail/atomic.hpp"

namespace perf::runtime {

using detail::load_relaxed;
using detail::store_relaxed;

namespace {

constexpr double units_per_tick = uint64_t{1} << detail::probe_fraction_bits;

// outlier_floor_probes probe costs, in ticks: set once at start-up, when the probe's
// cost is known (0 while it is measured, whose own sampled calls come here too).
double outlier_floor_ticks = 0;

// Sets the estimate the untimed calls of `s` add to their callers from here on,
// first adding what the untimed calls since the last change credited at the old one
// to s.credited. Owner only.
void set_untimed_estimate(detail::slot& s, uint64_t estimate) {
  const uint64_t untimed = s.untimed;
  store_relaxed(s.credit_version, s.credit_version + 1);
  detail::store_store_barrier();
  store_relaxed(s.credited, s.credited + (untimed - s.credited_untimed) * s.untimed_estimate);
  store_relaxed(s.credited_untimed, untimed);
  store_relaxed(s.untimed_estimate, estimate);
  detail::store_store_barrier();
  store_relaxed(s.credit_version, s.credit_version + 1);
}

// An estimate in fixed point from a mean in ticks: at least one unit, so that a
// caller's callee time shows that it had callees.
uint64_t estimate_units(double mean_ticks) {
  return static_cast<uint64_t>(std::max(1.0, std::round(mean_ticks * units_per_tick)));
}

// What the untimed calls of `s` credited their callers, less what finish() found in
// excess of the calls it stood for, in ticks. Its own thread may still be writing `s`:
// retried while the owner writes the credits (a few stores; after many tries, as read).
double credited_ticks(const detail::slot& s) {
  uint64_t credited = 0, since = 0, estimate = 0;
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const uint32_t version = load_relaxed(s.credit_version);
    detail::load_load_barrier();
    credited = load_relaxed(s.credited);
    since = load_relaxed(s.credited_untimed);
    estimate = load_relaxed(s.untimed_estimate);
    detail::load_load_barrier();
    if ((version & 1) == 0 && load_relaxed(s.credit_version) == version) break;
  }
  const uint64_t untimed = load_relaxed(s.untimed);
  const uint64_t later = untimed > since ? untimed - since : 0;
  const double given =
      (static_cast<double>(credited) + static_cast<double>(later) * static_cast<double>(estimate)) / units_per_tick;
  return std::max(0.0, given - static_cast<double>(load_relaxed(s.over_credited)));
}

// The timed calls of `s` not counted apart (all of them where its tail is frequent):
// their count, the sum of their durations and the variance of one (n - 1 in the
// denominator), in ticks. Its own thread may still be writing `s`.
struct kept_calls {
  uint64_t n = 0;
  double sum = 0;
  double variance_of_one = 0;
};
kept_calls kept(const detail::slot& s) {
  const uint64_t timed = load_relaxed(s.timed), outliers = load_relaxed(s.outliers);
  if (outliers >= timed) return {};
  const bool apart = !frequent_tail(outliers, timed);
  kept_calls k;
  k.n = apart ? timed - outliers : timed;
  const double n = static_cast<double>(k.n);
  const double deviation = static_cast<double>(load_relaxed(s.sum_deviation)) -
                           (apart ? static_cast<double>(load_relaxed(s.outlier_deviation)) : 0.0);
  const double squares =
      load_relaxed(s.sum_squared_deviation) - (apart ? load_relaxed(s.outlier_squared_deviation) : 0.0);
  k.sum = n * static_cast<double>(load_relaxed(s.reference)) + deviation;
  if (k.n > 1) k.variance_of_one = std::max(0.0, (squares - deviation * deviation / n) / (n - 1));
  return k;
}

// What an untimed call of `s` is estimated to take, in ticks: the bulk's mean, and
// where the tail is frequent, its share of the calls at its own mean. Owner only.
double untimed_mean(const detail::slot& s) {
  const double bulk = static_cast<double>(s.bulk_mean) / units_per_tick;
  if (!frequent_tail(s.outliers, s.timed)) return bulk;
  const double timed = static_cast<double>(s.timed), outliers = static_cast<double>(s.outliers);
  const double tail_sum = outliers * static_cast<double>(s.reference) + static_cast<double>(s.outlier_deviation);
  return bulk * (1 - outliers / timed) + tail_sum / timed;
}

void start_sampling_thread(thread_record& thread) {
  // PERF_COMPENSATE=off asks for raw figures: every call timed, nothing estimated.
  thread.state.sampling = current_timing_config().adaptive && current_compensation().on ? 1 : 0;
  thread.state.random = fresh_seed(&thread.state);
}

// Whether two periods differ enough to change the rate: a change of the mean by a few
// percent between reviews keeps the period.
bool changed(uint32_t from, uint32_t to) {
  if (from == 0 || to == 0) return from != to;
  return to * 4 < from * 3 || from * 4 < to * 3;
}

}  // namespace

timing_config parse_timing_config(const std::function<const char*(const char*)>& getenv_fn) {
  timing_config result;
  if (const char* value = getenv_fn("PERF_TIMING"); value != nullptr && *value != '\0') {
    const std::string_view text = value;
    if (text == "all") result.adaptive = false;
    else if (text != "adaptive")
      result.warnings.push_back(fmt::format("PERF_TIMING='{}' is neither adaptive nor all; timing adaptively", text));
  }
  return result;
}

const timing_config& current_timing_config() { return settled_config<timing_config, parse_timing_config>(); }

uint32_t sampling_period(double mean, double inside, double probe) {
  const double own = std::max(0.0, mean - inside);
  if (!(probe > 0) || own >= probe_dominated_factor * probe) return 0;
  const double least = own > 0 ? std::ceil(probe / (timing_share * own)) : max_period;
  return static_cast<uint32_t>(std::clamp(least, 2.0, static_cast<double>(max_period)));
}

bool frequent_tail(uint64_t outliers, uint64_t timed) {
  return outliers >= least_frequent_tail &&
         static_cast<double>(outliers) >= frequent_tail_share * static_cast<double>(timed);
}

void review_timing(detail::thread_state& thread, detail::slot& target) noexcept {
  const uint64_t timed = target.timed;
  target.next_review =
      timed < first_review ? first_review : timed + std::clamp(timed, first_review, longest_review_interval);
  if (timed < first_review || target.had_callees != 0) return;
  // A sampled site's mean is its untimed calls' estimate; one not sampled yet has
  // every timed call for its first, and its bulk's.
  double mean = untimed_mean(target);
  if (target.period == 0) {
    const kept_calls k = kept(target);
    if (k.n == 0) return;
    mean = k.sum / static_cast<double>(k.n);
    target.bulk_mean = estimate_units(mean);
  }
  const compensation& c = current_compensation();
  const uint32_t period = sampling_period(mean, c.on ? 0.0 : c.cost.inside, c.cost.outside);
  if (target.period == 0) set_untimed_estimate(target, estimate_units(mean));
  if (!changed(target.period, period)) return;
  target.period = period;
  target.countdown = period != 0 ? detail::next_countdown(thread, period) : 0;
}

void take_sampled_duration(detail::slot& target, uint64_t duration) noexcept {
  const double bulk = static_cast<double>(target.bulk_mean) / units_per_tick;
  const double threshold = std::max(outlier_factor * bulk, outlier_floor_ticks);
  if (static_cast<double>(duration) > threshold) {
    const int64_t deviation = static_cast<int64_t>(duration - target.reference);
    const double d = static_cast<double>(deviation);
    store_relaxed(target.outlier_deviation, target.outlier_deviation + deviation);
    store_relaxed(target.outlier_squared_deviation, target.outlier_squared_deviation + d * d);
    store_relaxed(target.outliers, target.outliers + 1);
    if (frequent_tail(target.outliers, target.timed))
      set_untimed_estimate(target, estimate_units(untimed_mean(target)));
    return;
  }
  target.recent_sum += duration;
  if (++target.recent_count < recent_calls) return;
  const uint64_t block = estimate_units(static_cast<double>(target.recent_sum) / recent_calls);
  target.recent_sum = 0;
  target.recent_count = 0;
  uint64_t* means = target.block_means;
  means[target.blocks_seen++ % 3] = block;
  target.bulk_mean = target.blocks_seen < 3
                         ? block
                         : std::max(std::min(means[0], means[1]), std::min(std::max(means[0], means[1]), means[2]));
  set_untimed_estimate(target, estimate_units(untimed_mean(target)));
}

void stop_sampling(detail::slot& target) noexcept {
  store_relaxed(target.had_callees, 1u);
  target.period = 0;
  target.countdown = 0;
}

estimated_sums estimate_sums(const detail::slot& s) {
  const kept_calls k = kept(s);
  const uint64_t timed = load_relaxed(s.timed), outliers = load_relaxed(s.outliers);
  const double credited = credited_ticks(s);
  estimated_sums e;
  e.total = static_cast<double>(load_relaxed(s.total)) + credited;
  e.self = static_cast<double>(static_cast<int64_t>(load_relaxed(s.self))) + credited;
  e.outliers = outliers <= timed && !frequent_tail(outliers, timed) ? outliers : 0;
  if (e.outliers != 0)
    e.outlier_sum = static_cast<double>(e.outliers) * static_cast<double>(load_relaxed(s.reference)) +
                    static_cast<double>(load_relaxed(s.outlier_deviation));
  e.sum = k.sum + e.outlier_sum + credited;
  // The untimed calls' part estimated from the n kept timed calls of C calls.
  const double calls = static_cast<double>(timed + load_relaxed(s.untimed) - e.outliers);
  const double n = static_cast<double>(k.n);
  if (n > 0) e.variance = std::max(0.0, calls * (calls - n)) * k.variance_of_one / n;
  return e;
}

PERF_RUNTIME_ON_START(register_adaptive_timing) {
  current_timing_config();
  outlier_floor_ticks = outlier_floor_probes * current_compensation().cost.outside;
  add_thread_hooks({.attach = start_sampling_thread});
}

}  // namespace perf::runtime

uint32_t perf::runtime::geometric_countdown(detail::thread_state& thread, uint32_t period) noexcept {
  // xorshift64 (Marsaglia), then the number of Bernoulli(1/period) trials up to the
  // first success: ceil(log(u) / log(1 - 1/period)) for u uniform in (0, 1].
  uint64_t x = thread.random;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  thread.random = x;
  const double u = runtime::uniform_above_zero(x);
  const double trials = std::ceil(std::log(u) / std::log1p(-1.0 / period));
  return trials < 1 ? 1u : trials > 1e9 ? 1000000000u : static_cast<uint32_t>(trials);
}

uint32_t perf::detail::next_countdown(thread_state& thread, uint32_t period) noexcept {
  return runtime::usdt_attached() ? 1u : runtime::geometric_countdown(thread, period);
}
