// A diff_result as text (a terminal), Markdown (a CI comment) or JSON.
#ifndef PERF_REPORT_TOOL_DIFF_FORMAT_HPP
#define PERF_REPORT_TOOL_DIFF_FORMAT_HPP

#include <string>

#include <nlohmann/json.hpp>

#include "diff.hpp"

namespace perf::perf_report {

std::string format_diff_text(const diff_result& d);
std::string format_diff_markdown(const diff_result& d);
// `s` with Markdown's table and emphasis characters (| * _ ` < >) escaped.
std::string markdown_escaped(const std::string& s);
nlohmann::json diff_to_json(const diff_result& d);

}  // namespace perf::perf_report

#endif  // PERF_REPORT_TOOL_DIFF_FORMAT_HPP
