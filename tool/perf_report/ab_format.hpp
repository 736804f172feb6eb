// An ab_result as text (a terminal), Markdown (a pull-request comment), JSON, or JUnit
// XML (one test case per gated function, for CI servers that show test results).
#ifndef PERF_REPORT_TOOL_AB_FORMAT_HPP
#define PERF_REPORT_TOOL_AB_FORMAT_HPP

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ab.hpp"

namespace perf::perf_report {

std::string format_ab_text(const ab_result& r);
std::string format_ab_markdown(const ab_result& r);
nlohmann::json ab_to_json(const ab_result& r);
// `rules`: the --fail-if rules, each failed test case naming the ones its function broke.
std::string format_ab_junit(const ab_result& r, const std::vector<fail_rule>& rules);

}  // namespace perf::perf_report

#endif  // PERF_REPORT_TOOL_AB_FORMAT_HPP
