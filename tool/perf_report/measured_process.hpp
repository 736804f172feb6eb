// One run of a measured program for `perf-report ab`: the command started directly
// (no shell), its report written where PERF_REPORT says.
#ifndef PERF_REPORT_TOOL_MEASURED_PROCESS_HPP
#define PERF_REPORT_TOOL_MEASURED_PROCESS_HPP

#include <string>
#include <vector>

namespace perf::perf_report {

// Runs `command` (argv; the program looked up in PATH) with this process's environment
// and PERF_REPORT=`report_path`, its standard output discarded (ab's own output is the
// comparison) and its standard error passed through, and waits for it. Throws
// input_error naming `side` ("--base") and the command when it cannot be started,
// exits with a non-zero status or by a signal, or writes no report.
void run_measured(const std::vector<std::string>& command, const std::string& report_path, const std::string& side);

}  // namespace perf::perf_report

#endif  // PERF_REPORT_TOOL_MEASURED_PROCESS_HPP
