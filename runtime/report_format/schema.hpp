// The JSON report's schema (docs/report-format.md) as both its writer (the runtime)
// and its reader (perf-report) apply it: the version both speak, and the rule that
// marks a function probe-dominated, which perf-report applies again to merged rows.
// The figures a program may read stay in perf/report.hpp (json_schema_version,
// probe_dominated_factor); this is their one use by the binaries. The columns of a
// functions[] row are function_columns.hpp's.
#ifndef PERF_RUNTIME_REPORT_FORMAT_SCHEMA_HPP
#define PERF_RUNTIME_REPORT_FORMAT_SCHEMA_HPP

#include "perf/report.hpp"

namespace perf::report_format {

// The version the runtime writes and perf-report reads and writes.
constexpr int schema_version = json_schema_version;

// A function is probe-dominated when its median less what the probe left in it
// (`probe_inside_ns`: the probe's inside cost when the durations were not
// compensated, else 0) is below probe_dominated_factor probe costs (`probe_ns`): the
// median, unlike the mean, is not moved by a few long calls, so two runs agree.
bool probe_dominated(double p50_ns, double probe_inside_ns, double probe_ns);

// The runtime's calibration of a clock's rate stops when two estimates agree within
// this fraction of the rate (core/clock.cpp): two rates closer than that are one clock
// (same_clock_rate), as perf-report merges them.
constexpr double calibration_precision = 1e-4;
bool same_clock_rate(double a_ghz, double b_ghz);

// An estimated mean's 95% interval (mean_ns_low to mean_ns_high, adaptive timing) is
// this many standard errors either side of it: the normal distribution's 97.5% point.
inline constexpr double mean_interval_z = 1.959963984540054;

}  // namespace perf::report_format

#endif  // PERF_RUNTIME_REPORT_FORMAT_SCHEMA_HPP
