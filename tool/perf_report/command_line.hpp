// perf-report's command line (docs/perf-report.md): merge, diff, ab, html.
#ifndef PERF_REPORT_TOOL_COMMAND_LINE_HPP
#define PERF_REPORT_TOOL_COMMAND_LINE_HPP

#include <ostream>
#include <string>
#include <vector>

namespace perf::perf_report {

// Exit codes: 0 done, 1 a --fail-if rule is broken, 2 bad usage or bad input (one
// message on `err` naming the file and the problem; no output file written).
int run_command_line(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err);

}  // namespace perf::perf_report

#endif  // PERF_REPORT_TOOL_COMMAND_LINE_HPP
