// The ranges a report's figures keep (docs/perf-report.md, "Untrusted input"): what the
// runtime can write, checked against the report's own totals and clock, and what
// perf-report's arithmetic on them stays finite and exact for. The reader checks every
// report against them, and merge checks the report it made, so that whatever
// perf-report writes, perf-report reads.
#ifndef PERF_REPORT_TOOL_REPORT_RANGES_HPP
#define PERF_REPORT_TOOL_REPORT_RANGES_HPP

#include <string>

#include "parsed_report.hpp"

namespace perf::perf_report {

// Throws input_error ("FILE: functions[2] \"min_ns\" is above 2^64 ns, ...") for the
// first figure of `f`, the row at `where` ("functions[2]"), out of its range: counts
// above 2^53, times negative or above max_duration_ns, timed_calls above calls, the
// histogram's count other than timed_calls, an estimated mean outside its interval.
void check_function_ranges(const function_record& f, const std::string& file, const std::string& where);

// Every check the reader makes of a report, on one perf-report made (a merge): throws
// input_error naming `r.path` and the first figure out of range.
void check_report_ranges(const report& r);

}  // namespace perf::perf_report

#endif  // PERF_REPORT_TOOL_REPORT_RANGES_HPP
