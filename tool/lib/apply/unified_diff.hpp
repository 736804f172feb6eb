// A unified diff of a file before and after instrumentation.
#ifndef PERF_TOOL_UNIFIED_DIFF_HPP
#define PERF_TOOL_UNIFIED_DIFF_HPP

#include <string>
#include <string_view>

namespace perf::tool {

// The diff (3 lines of context) between `before` and `after`, where `after` is
// `before` with lines added at its top and text inserted within lines, as the
// rewriter changes files, naming the file `path` in its header lines. Empty when
// they are equal.
std::string unified_diff(const std::string& path, std::string_view before, std::string_view after);

}  // namespace perf::tool

#endif  // PERF_TOOL_UNIFIED_DIFF_HPP
