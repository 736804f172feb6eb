// What the measuring probe costs on this machine and clock, measured once at
// start-up, and the compensation that the hot path applies with it
// (PERF_COMPENSATE; docs/performance.md, "Compensation").
#ifndef PERF_RUNTIME_MEASURE_PROBE_COST_HPP
#define PERF_RUNTIME_MEASURE_PROBE_COST_HPP

#include <functional>
#include <string>
#include <vector>

#include "perf/detail/clock.hpp"
#include "perf/detail/thread_state.hpp"
#include "perf/report.hpp"

namespace perf::runtime {

// In ticks of the clock that was measured.
struct probe_cost {
  // How much longer a caller takes per measured call it makes than with the same
  // function unmeasured: the whole probe, as its callers see it.
  double outside = 0;
  // How much of the probe lies between the measured function's own two clock
  // reads: what an empty measured function records beyond what the same function
  // takes unmeasured. Part of `outside`.
  double inside = 0;
  // What a call of the empty function takes unmeasured: no compensated duration is
  // shown below it.
  double empty_call = 0;
  // How much longer a caller takes per untimed call of a sampled leaf (adaptive
  // timing's fast path, untimed_call) than with the function unmeasured.
  double untimed = 0;
  // What a timed call of a sampled leaf records beyond what the function takes
  // unmeasured: `inside` for a call that comes once in many untimed ones, which finds
  // the timed path's branches predicted the other way and its code colder.
  double inside_sampled = 0;
};

// Measures the probe of PERF_MEASURE (with its tick-log events when `ticks`) on
// `clock`: an empty measured function, timed, untimed and sampled, against an empty
// plain one, called from inside a measured caller, in 32 interleaved batches, each
// figure the median over the batches of a measured loop less its batch's plain loop
// (an interrupt or a preemption lengthens a batch or two, not the median). Load that lasts longer (another process's burst, a slowed core)
// lengthens every batch: settle_probe_cost() repeats the measurement until two
// agree. Runs the real inline probe on a private thread block, so no site, thread
// or statistics of the program are touched. A fraction of a millisecond on a quiet
// machine, a few on a busy one.
probe_cost measure_probe_cost(detail::clock_source clock, bool ticks);

// Calls `measure` until a figure agrees with the lowest before it within 3% (the
// consistency check), at most 8 times, 1 ms apart from the third on, and returns
// the lowest: a figure that load inflated is followed by a lower one that disagrees
// with it, and a pair that agrees is the machine's own cost.
probe_cost settle_probe_cost(const std::function<probe_cost()>& measure);

struct compensation_config {
  bool on = true;  // PERF_COMPENSATE: on (the default) or off
  // One line per value that could not be used, naming the variable.
  std::vector<std::string> warnings;
};

// Reads PERF_COMPENSATE through `getenv_fn`; a null result means unset.
compensation_config parse_compensation_config(const std::function<const char*(const char*)>& getenv_fn);

// Sets the probe fields of `thread` to subtract `cost` (in ticks) from every
// duration it records, or nothing when `on` is false.
void set_compensation(detail::thread_state& thread, const probe_cost& cost, bool on);

struct compensation {
  probe_cost cost;  // measured also when compensation is off, for the report
  bool on = true;
};

// This process's: PERF_COMPENSATE and the probe measured on the chosen clock,
// once (at start-up). Thread-safe.
const compensation& current_compensation();

// Fills in the probe's figures in `s.clock` (its cost in nanoseconds, whether it was
// subtracted); where `c` subtracted it, raises every function's min, mean, max and
// percentiles that the subtraction took below the cost of an empty call to that
// cost; marks the probe-dominated functions of `s.functions`
// (report_format::probe_dominated, with the probe's inside part where `c` did not
// subtract it) and sums what the probe cost in `s.overhead`.
void add_probe_figures(snapshot& s, const compensation& c, double ticks_per_ns);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_MEASURE_PROBE_COST_HPP
