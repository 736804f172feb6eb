// One function's row of the report, made from its accumulated ticks: the place where
// the figures a user reads are made, and where they are made consistent.
#ifndef PERF_RUNTIME_MEASURE_FUNCTION_ROW_HPP
#define PERF_RUNTIME_MEASURE_FUNCTION_ROW_HPP

#include "core/sites.hpp"
#include "measure/stats.hpp"
#include "perf/report.hpp"

namespace perf::runtime {

// The row of the function at `where` whose calls `a` accumulated, in nanoseconds.
// No call is shown shorter than `least_call_ns` (what an empty call costs, where the
// probe's cost was subtracted; probe_cost.hpp): not its per-call figures, nor its
// total, which is at least calls x that. Whatever the ticks (a compensation that took
// too much, an estimate, a slot read while its thread writes it), the row keeps these
// invariants: no duration or interval bound is negative; self <= total; a leaf's (no
// timed call had a measured callee) total is its self time; min <= mean <= max, and
// each percentile lies between min and max.
function_stats function_row(site_info&& where, const accumulator& a, double ticks_per_ns,
                            const latency_binning& binning, double least_call_ns = 0);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_MEASURE_FUNCTION_ROW_HPP
