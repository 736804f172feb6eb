// perf-report merge: several reports (processes, test binaries, machines) as one.
#ifndef PERF_REPORT_TOOL_MERGE_HPP
#define PERF_REPORT_TOOL_MERGE_HPP

#include <vector>

#include "parsed_report.hpp"

namespace perf::perf_report {

// Adds `b` to `a` exactly: calls, totals, extremes, allocation totals; the moments
// by Chan et al.'s parallel formula; histograms bucket by bucket (rebinned at their
// midpoints in ns when the clock rates differ). The probe's cost is weighted by calls
// and probe_dominated judged again on the merged median (not an OR: a function
// dominated in a short run and not in a long one is, merged, not dominated).
void merge_function(function_record& a, const function_record& b);

// The rows of `reports` (at least one) merged by location (name, file, line) with
// merge_function, in the order each location first appears; the histograms count
// at the reports' clock rate when they share one, else in nanoseconds (1 GHz).
std::vector<function_record> merge_functions(const std::vector<report>& reports);

// One report of everything in `reports` (at least one), functions matched by name,
// file and line, by total time. Threads and allocation rows are listed with the pid
// of their report; sample lists are summed by function (and line); the clock is
// kept when all reports share it (rates within the calibration's precision are one
// clock: the first report's rate is kept), else {"source": "merged", "ghz": 1} with every
// histogram rebinned in nanoseconds; probe_overhead adds up calls, ns and process
// CPU time and counts the merged probe-dominated functions. Throws input_error ("the
// merged report: functions[0] \"calls\" is above 2^53, ...") where the sums leave the
// ranges a report keeps (report_ranges.hpp): what it returns, perf-report reads.
report merge_reports(const std::vector<report>& reports);

}  // namespace perf::perf_report

#endif  // PERF_REPORT_TOOL_MERGE_HPP
