#include "measure/probe_checks.hpp"

#include <fmt/format.h>

#include "core/clock.hpp"
#include "core/report_sections.hpp"
#include "core/settings.hpp"
#include "core/startup.hpp"
#include "core/threads.hpp"
#include "measure/probe_cost.hpp"
#include "report_format/text_format.hpp"

namespace perf::runtime {
namespace {

// A second: a sample of the sampler's that falls due during a check (signals blocked) is
// taken as it ends, in the probe's bookkeeping after the call's end, where the measured
// list charges it to the caller and the hottest functions to the callee; once a second,
// that moves at most one sample of thousands.
constexpr double check_interval_ns = 1e9;
// The clock is read at one fold of pending calls in this many (a fold comes every 64
// timed calls): the check costs the timed path nothing it would notice.
constexpr uint32_t folds_between_clock_reads = 8;

// The calling thread's own block, while it is attached: a check is for the threads of
// the program, never for a block outside the registry (the calibration's, a test's).
PERF_DETAIL_TLS detail::thread_state* own_block;
PERF_DETAIL_TLS uint32_t folds_until_clock_read;
PERF_DETAIL_TLS uint64_t next_check;  // the clock value from which this thread checks again

// Process-wide, any thread: the totals, and the highest figure in 1/256 ticks.
uint64_t checks_made, checks_above, highest_units;

uint64_t interval_ticks(detail::clock_source clock) noexcept {
  return static_cast<uint64_t>(check_interval_ns * quick_ticks_per_ns(clock));
}

void raise_to(uint64_t& highest, uint64_t value) {
  uint64_t seen = __atomic_load_n(&highest, __ATOMIC_RELAXED);
  while (value > seen &&
         !__atomic_compare_exchange_n(&highest, &seen, value, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
}

std::string checks_json(const snapshot&) {
  const probe_check_totals t = probe_checks();
  const double ticks_per_ns = current_clock_rate().ticks_per_ns;
  return fmt::format("{{\"checks\": {}, \"above\": {}, \"highest_ns\": {:.2f}}}", t.checks, t.above,
                     t.highest_outside / ticks_per_ns);
}

std::string checks_lines(const snapshot& s) {
  const probe_check_totals t = probe_checks();
  if (t.checks == 0) return {};
  const std::string checked =
      "probe checked " + report_format::format_count_of(t.checks, "time") + " while the program ran: ";
  if (t.above == 0)
    return checked + fmt::format("never more than {:.0f}% above its start-up {}\n", (probe_check_margin - 1) * 100,
                                 report_format::format_duration(s.clock.probe_ns));
  return checked + fmt::format(
                       "{} ({:.1f}%) found it more than {:.0f}% above its start-up {}, up to {} (a slower host or a "
                       "busy core): calls a few probe costs long read long then\n",
                       report_format::format_count(t.above),
                       100.0 * static_cast<double>(t.above) / static_cast<double>(t.checks),
                       (probe_check_margin - 1) * 100, report_format::format_duration(s.clock.probe_ns),
                       report_format::format_duration(t.highest_outside / current_clock_rate().ticks_per_ns));
}

}  // namespace

probe_check_totals probe_checks() {
  probe_check_totals t;
  t.checks = __atomic_load_n(&checks_made, __ATOMIC_RELAXED);
  t.above = __atomic_load_n(&checks_above, __ATOMIC_RELAXED);
  t.highest_outside = static_cast<double>(__atomic_load_n(&highest_units, __ATOMIC_RELAXED)) / 256;
  return t;
}

void check_probe_cost(detail::thread_state& thread) noexcept {
  if (&thread != own_block || &thread != detail::current_thread || folds_until_clock_read-- != 0) return;
  folds_until_clock_read = folds_between_clock_reads - 1;
  const uint64_t start = detail::clock_now(thread.clock);
  if (next_check == 0) next_check = start + interval_ticks(thread.clock);  // a thread checks once a second old
  if (start < next_check) return;
  const compensation* const settled = settled_compensation();
  if (settled == nullptr || !settled->on) return;
  const std::optional<probe_cost> measured = try_measure_probe_cost_briefly(thread.clock, thread.ring != nullptr);
  const uint64_t end = detail::clock_now(thread.clock);
  if (!measured) return;
  next_check = end + interval_ticks(thread.clock);
  // The check's time is the runtime's: the activations it lies in take it out, as
  // they take out the probes' cost (finish).
  if (end > start) thread.probes_finished += (end - start) << detail::probe_fraction_bits;
  __atomic_fetch_add(&checks_made, 1, __ATOMIC_RELAXED);
  if (measured->outside > probe_check_margin * settled->cost.outside)
    __atomic_fetch_add(&checks_above, 1, __ATOMIC_RELAXED);
  raise_to(highest_units, static_cast<uint64_t>(measured->outside * 256));
}

PERF_RUNTIME_ON_START(register_probe_checks) {
  add_report_section({55, "probe_checks", checks_json, checks_lines});
  add_thread_hooks({.attach = [](thread_record& thread) { own_block = &thread.state; },
                    .leave = [](thread_record&) { own_block = nullptr; }});
}

}  // namespace perf::runtime
