// perf-report html: one self-contained page (no network: inline CSS, script and
// SVG) for a report or a diff. The page carries its data as a JSON object that
// its script renders: a sortable function table, latency distributions from the
// histograms, a flame graph of folded stacks, allocation bars, per-thread figures.
#ifndef PERF_REPORT_TOOL_HTML_HPP
#define PERF_REPORT_TOOL_HTML_HPP

#include <string>

#include <nlohmann/json.hpp>

#include "diff.hpp"
#include "report.hpp"

namespace perf::report_tool {

// `folded`: folded stacks ("a;b;c 12" lines, PERF_PROFILE's format) for the flame
// graph; empty for none.
std::string html_report_page(const report& r, const std::string& folded);
std::string html_diff_page(const diff_result& d);

// The data the pages embed (tests read it): a report's functions as columns.
nlohmann::json report_page_data(const report& r, const std::string& folded);

}  // namespace perf::report_tool

#endif  // PERF_REPORT_TOOL_HTML_HPP
