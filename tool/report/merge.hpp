// perf-report merge: several reports (processes, test binaries, machines) as one.
#ifndef PERF_REPORT_TOOL_MERGE_HPP
#define PERF_REPORT_TOOL_MERGE_HPP

#include <vector>

#include "report.hpp"

namespace perf::report_tool {

// Adds `b` to `a` exactly: calls, totals, extremes, allocation totals; the moments
// by Chan et al.'s parallel formula; histograms bucket by bucket (rebinned at their
// midpoints in ns when the clock rates differ).
void merge_function(function_record& a, const function_record& b);

// One report of everything in `reports` (at least one), functions matched by name,
// file and line, by total time. Threads and allocation rows are listed with the pid
// of their report; sample lists are summed by function (and line); the clock is
// kept when all reports share it, else {"source": "merged", "ghz": 1} with every
// histogram rebinned in nanoseconds.
report merge_reports(const std::vector<report>& reports);

}  // namespace perf::report_tool

#endif  // PERF_REPORT_TOOL_MERGE_HPP
