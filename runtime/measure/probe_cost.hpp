// What the measuring probe costs on this machine and clock, measured once at
// start-up, and the compensation that the hot path applies with it
// (PERF_COMPENSATE; docs/performance.md, "Compensation").
#ifndef PERF_RUNTIME_MEASURE_PROBE_COST_HPP
#define PERF_RUNTIME_MEASURE_PROBE_COST_HPP

#include <functional>
#include <optional>
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
// (an interrupt or a preemption lengthens a batch or two, not the median). Runs the
// real inline probe on a private thread block, so no site, thread or statistics of
// the program are touched. A fraction of a millisecond.
probe_cost measure_probe_cost(detail::clock_source clock, bool ticks);

// The same in brief, for a check while the program runs (probe_checks.hpp): 4 batches
// of 128 calls of each kind, no sampled calls (inside_sampled is inside), about 40 us;
// nullopt, having measured nothing, while another measurement runs (on another
// thread, or the one this thread's own measured call interrupted). Allocates nothing;
// async-signal-safe.
std::optional<probe_cost> try_measure_probe_cost_briefly(detail::clock_source clock, bool ticks) noexcept;

// The probe's cost as the runtime settles it: the lowest of several measurements.
struct settled_probe_cost {
  probe_cost cost;             // the lowest measurement (by `outside`), or the known floor
  double highest_outside = 0;  // the highest `outside` measured meanwhile
  int measurements = 0;
  bool confirmed = false;  // whether a second measurement, or the known floor, agreed with the lowest
  bool new_floor = false;  // a lower floor than the known one, confirmed (or the first one)
  // With a known floor: this process's own figure, settled as without one, where it came
  // out more than floor_raise_margin above the known floor (a busy spell, or a machine
  // whose probe now costs more: probe_floor.hpp's choose_floor tells them apart).
  std::optional<probe_cost> above;
  // With a known floor: a first measurement above it whose own settling never
  // confirmed a figure (12 measurements without two agreeing): neither above nor near it.
  bool undecided = false;
};

// How far above a known floor a process's own settled figure must lie to count as
// above it: beyond the 3% that settled figures of one machine spread between processes.
constexpr double floor_raise_margin = 0.05;

// Calls `measure` at least 3 times, 1 ms apart, and on until a measurement agrees with
// the lowest within 3% (the consistency check), at most 12 times, and keeps the
// lowest: the probe's cost on a quiet core. The same process's probe costs up to half
// as much again for milliseconds at a time on a busy host (docs/performance.md,
// "Calibration"): subtracting such a figure from every call made meanwhile took more
// than the probe had cost and gave negative times, where the floor leaves at most the
// excess in them. With a `known` floor (an earlier process's, probe_floor.hpp) that
// counts as a confirmed measurement: a first measurement that agrees with it or comes
// out higher settles it; a lower one needs a second to confirm it. A first one more
// than floor_raise_margin above it has the process settle its own figure as well (3
// measurements or more), which `above` holds where it stays that far above.
settled_probe_cost settle_probe_cost(const std::function<probe_cost()>& measure,
                                     const std::optional<probe_cost>& known = std::nullopt);

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
  settled_probe_cost calibration{};  // how `cost` was settled, for the report
};

// This process's: PERF_COMPENSATE and the probe measured on the chosen clock,
// once (at start-up). Thread-safe.
const compensation& current_compensation();

// current_compensation() once it is settled, else null (it is settled at start-up, by
// its first call). Async-signal-safe: for a check of the probe while the program runs.
const compensation* settled_compensation() noexcept;

// The least duration a call may be shown with under `c`: where it subtracts the
// probe's cost, a fixed cost per call that may take a short call below what an empty
// call takes, that empty call's cost; else 0 (raw figures stay raw).
double least_call_ns(const compensation& c, double ticks_per_ns);

// Fills in the probe's figures in `s.clock` (its cost in nanoseconds, whether it was
// subtracted); marks the probe-dominated functions of `s.functions`
// (report_format::probe_dominated, with the probe's inside part where `c` did not
// subtract it) and sums what the probe cost in `s.overhead`.
void add_probe_figures(snapshot& s, const compensation& c, double ticks_per_ns);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_MEASURE_PROBE_COST_HPP
