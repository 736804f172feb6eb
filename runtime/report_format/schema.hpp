// The JSON report's schema (docs/report-format.md) as both its writer (the runtime)
// and its reader (perf-report) apply it: the version both speak, and the rule that
// marks a function probe-dominated, which perf-report applies again to merged rows.
// The figures a program may read stay in perf/report.hpp (json_schema_version,
// probe_dominated_factor); this is their one use by the binaries.
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

}  // namespace perf::report_format

#endif  // PERF_RUNTIME_REPORT_FORMAT_SCHEMA_HPP
