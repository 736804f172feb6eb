// Durations as perf-report writes them in text and Markdown: the runtime's report's
// units (runtime/report_format/text_format.hpp), with a sign for a time saved.
#ifndef PERF_REPORT_TOOL_DURATION_TEXT_HPP
#define PERF_REPORT_TOOL_DURATION_TEXT_HPP

#include <string>

namespace perf::perf_report {

// "812 ns", "12.1 ms"; a negative value with a minus: "-40.5 ms".
std::string signed_duration(double ns);

}  // namespace perf::perf_report

#endif  // PERF_REPORT_TOOL_DURATION_TEXT_HPP
