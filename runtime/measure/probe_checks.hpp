// The probe's cost checked again while the program runs. Compensation subtracts the
// figure settled at start-up (probe_cost.hpp), a quiet core's; when the host slows the
// core later (another guest on it), every timed call then costs more than that, and a
// short function's compensated figures read long by the difference. So each thread
// that makes timed calls measures the probe again in brief, on the calibration's
// private block, about every second from when it is a second old (at a fold of its
// pending calls, drain_pending), and the runtime counts the checks and those that found the probe
// more than 15% above the settled figure. The report says how many did, and how high
// the probe went (section "probe_checks"). The figures keep the settled compensation.
//
// A check takes about 40 us of the thread's time with every signal blocked; that time
// is taken out of the activations it lies in, as the probe's own cost is.
#ifndef PERF_RUNTIME_MEASURE_PROBE_CHECKS_HPP
#define PERF_RUNTIME_MEASURE_PROBE_CHECKS_HPP

#include <cstdint>

#include "perf/detail/thread_state.hpp"

namespace perf::runtime {

// The ratio of a check's figure to the settled one beyond which the check counts as
// above it.
constexpr double probe_check_margin = 1.15;

struct probe_check_totals {
  uint64_t checks = 0;
  uint64_t above = 0;          // of `checks`, those that found the probe above the margin
  double highest_outside = 0;  // the highest figure found, in ticks (0 without checks)
};

// What the checks so far found. Thread-safe.
probe_check_totals probe_checks();

// Checks the probe's cost where it is time to, for `thread`, the calling thread's own
// block (its record's, and current_thread), from its fold of pending calls; does
// nothing for any other block, or while compensation is off. Async-signal-safe.
void check_probe_cost(detail::thread_state& thread) noexcept;

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_MEASURE_PROBE_CHECKS_HPP
