// perf-instrument's command line: parse it, run the rewriter, report. The binary's
// main() only calls run_command_line().
#ifndef PERF_TOOL_DRIVER_HPP
#define PERF_TOOL_DRIVER_HPP

namespace perf::tool {

// Exit statuses (documented in docs/rewriter.md).
enum exit_status : int { success = 0, input_error = 1, usage_error = 2 };

int run_command_line(int argc, const char** argv);

}  // namespace perf::tool

#endif  // PERF_TOOL_DRIVER_HPP
