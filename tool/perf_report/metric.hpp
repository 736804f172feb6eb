// The figures perf-report compares per function (diff, ab).
#ifndef PERF_REPORT_TOOL_METRIC_HPP
#define PERF_REPORT_TOOL_METRIC_HPP

#include <cstddef>

namespace perf::perf_report {

// Times per call; `alloc` is allocations per call; `share` the share of all samples
// taken inside the function.
enum class metric { calls, mean, p50, p99, self, alloc, share };
constexpr size_t metric_count = 7;
const char* metric_name(metric m);

}  // namespace perf::perf_report

#endif  // PERF_REPORT_TOOL_METRIC_HPP
