// What a run says about the functions it selected. A name is escaped as in a
// string literal, so that each stays on its line.
#ifndef PERF_TOOL_FUNCTION_REPORT_HPP
#define PERF_TOOL_FUNCTION_REPORT_HPP

#include "selected_function.hpp"

namespace perf::tool {

// On stderr, for a function not measured: `file:line:col: warning: NAME is not measured: REASON`.
void warn_skipped(const selected_function& f);

// On stdout, for --list: `file:line: NAME`, with ` (skipped: REASON)` for one not measured.
void list_function(const selected_function& f);

}  // namespace perf::tool

#endif  // PERF_TOOL_FUNCTION_REPORT_HPP
