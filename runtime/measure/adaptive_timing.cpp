// Adaptive timing: PERF_TIMING, the reviews that choose a site's sampling period, the
// countdowns' random draws, and the stratified estimates of the sampled sites' sums.
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
#include "perf/detail/atomic.hpp"

namespace perf::runtime {

using detail::load_relaxed;
using detail::store_relaxed;

namespace {

// One stratum's figures: calls made while it lasted, timed calls, and the timed
// calls' sums (ticks).
struct stratum {
  uint64_t calls = 0;
  uint64_t timed = 0;
  double total = 0;
  double self = 0;
  double sum = 0;
  double variance_of_one = 0;  // of one duration (n - 1 in the denominator)
};

// The current stratum of `s`: its figures since its marks (or, with `whole`, every
// call of the slot). Its own thread may still be writing `s`.
stratum current_stratum(const detail::slot& s, bool whole = false) {
  stratum h;
  const uint64_t timed = load_relaxed(s.timed);
  h.calls = timed + load_relaxed(s.untimed) - (whole ? 0 : load_relaxed(s.stratum_calls));
  h.timed = timed - (whole ? 0 : load_relaxed(s.stratum_timed));
  if (h.timed == 0 || h.timed > h.calls) return {h.calls, 0};  // none timed yet, or read mid-review
  const double n = static_cast<double>(h.timed);
  const double deviation =
      static_cast<double>(load_relaxed(s.sum_deviation) - (whole ? 0 : load_relaxed(s.stratum_deviation)));
  const double squares =
      load_relaxed(s.sum_squared_deviation) - (whole ? 0 : load_relaxed(s.stratum_squared_deviation));
  h.total = static_cast<double>(load_relaxed(s.total) - (whole ? 0 : load_relaxed(s.stratum_total)));
  h.self = static_cast<double>(static_cast<int64_t>(load_relaxed(s.self) - (whole ? 0 : load_relaxed(s.stratum_self))));
  h.sum = n * static_cast<double>(load_relaxed(s.reference)) + deviation;
  if (h.timed > 1) h.variance_of_one = std::max(0.0, (squares - deviation * deviation / n) / (n - 1));
  return h;
}

// A stratum's timed total and durations' sum scaled to its calls, and the variance of
// the latter: C (C - n) s^2 / n, simple random sampling of n of C calls without
// replacement. (Self time is what the calls credited their callers: credited_ticks.)
estimated_sums scaled(const stratum& h) {
  if (h.timed == 0) return {};
  const double calls = static_cast<double>(h.calls), n = static_cast<double>(h.timed);
  const double scale = calls / n;
  return {.total = h.total * scale,
          .sum = h.sum * scale,
          .variance = std::max(0.0, calls * (calls - n)) * h.variance_of_one / n};
}

constexpr double units_per_tick = uint64_t{1} << detail::probe_fraction_bits;

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

// What the untimed calls of `s` added to their callers' callee time, in ticks. Its own
// thread may still be writing `s`: retried while a review writes the credits (a few
// stores; after many tries, as read).
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
  return (static_cast<double>(credited) + static_cast<double>(later) * static_cast<double>(estimate)) / units_per_tick;
}

// Adds the current stratum's estimates to the closed ones and begins a new one here.
void close_stratum(detail::slot& s) {
  const estimated_sums e = scaled(current_stratum(s));
  store_relaxed(s.closed_total, s.closed_total + e.total);
  store_relaxed(s.closed_sum, s.closed_sum + e.sum);
  store_relaxed(s.closed_variance, s.closed_variance + e.variance);
  store_relaxed(s.stratum_calls, s.timed + s.untimed);
  store_relaxed(s.stratum_timed, s.timed);
  store_relaxed(s.stratum_total, s.total);
  store_relaxed(s.stratum_self, s.self);
  store_relaxed(s.stratum_deviation, s.sum_deviation);
  store_relaxed(s.stratum_squared_deviation, s.sum_squared_deviation);
}

void start_sampling_thread(thread_record& thread) {
  thread.state.sampling = current_timing_config().adaptive ? 1 : 0;
  thread.state.random = fresh_seed(&thread.state);
}

// Whether two periods differ enough to start a new stratum: a change of the mean by a
// few percent between reviews keeps the period, so strata stay long.
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

void review_timing(detail::thread_state& thread, detail::slot& target) noexcept {
  const uint64_t timed = target.timed;
  if (timed < first_review || target.had_callees != 0) {
    target.next_review = std::max(timed + 1, first_review);
    return;
  }
  // The current stratum's figures where it has a few timed calls, else all of the
  // thread's: the estimate an untimed call adds follows the current rate's calls, so
  // that the first calls (the census, perhaps a cold or preempted one) weigh on few
  // untimed calls.
  stratum h = current_stratum(target);
  if (h.timed < least_stratum) {
    h.timed = timed;
    h.sum =
        static_cast<double>(timed) * static_cast<double>(target.reference) + static_cast<double>(target.sum_deviation);
    h.self = static_cast<double>(static_cast<int64_t>(target.self));
  }
  const double n = static_cast<double>(h.timed);
  const compensation& c = current_compensation();
  const uint32_t period = sampling_period(h.sum / n, c.on ? 0.0 : c.cost.inside, c.cost.outside);
  if (changed(target.period, period)) {
    close_stratum(target);
    target.period = period;
    target.countdown = period != 0 ? detail::next_countdown(thread, period) : 0;
  }
  set_untimed_estimate(target, static_cast<uint64_t>(std::max(1.0, std::round(h.self / n * units_per_tick))));
  // Reviews come after least_stratum timed calls of a new stratum, then as often as
  // the stratum doubles, up to longest_review_interval apart.
  target.next_review = timed + std::clamp(timed - target.stratum_timed, least_stratum, longest_review_interval);
}

void stop_sampling(detail::slot& target) noexcept {
  target.had_callees = 1;
  if (target.period == 0) return;
  close_stratum(target);
  target.period = 0;
  target.countdown = 0;
}

estimated_sums estimate_sums(const detail::slot& s) {
  stratum h = current_stratum(s);
  if (h.timed == 0 && h.calls != 0) {
    // A stratum begun at a review and not timed yet: its calls at the slot's rate.
    const stratum all = current_stratum(s, true);
    if (all.timed != 0) {
      const double share = static_cast<double>(h.calls) / static_cast<double>(all.timed);
      h = {.calls = h.calls,
           .timed = h.calls,
           .total = all.total * share,
           .sum = all.sum * share,
           .variance_of_one = all.variance_of_one};
    }
  }
  const estimated_sums current = scaled(h);
  // Self time: the timed calls' own, exact, and what the untimed ones credited their
  // callers, so that a caller's self time and its sampled callees' add up to its total.
  const double timed_self = static_cast<double>(static_cast<int64_t>(load_relaxed(s.self)));
  return {load_relaxed(s.closed_total) + current.total, timed_self + credited_ticks(s),
          load_relaxed(s.closed_sum) + current.sum, load_relaxed(s.closed_variance) + current.variance};
}

PERF_RUNTIME_ON_START(register_adaptive_timing) {
  current_timing_config();
  add_thread_hooks({.attach = start_sampling_thread});
}

}  // namespace perf::runtime

uint32_t perf::detail::next_countdown(thread_state& thread, uint32_t period) noexcept {
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
