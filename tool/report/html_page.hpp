// The fixed parts of perf-report's HTML pages: the style sheet and the script that
// renders the embedded data (html.hpp), with no network access.
#ifndef PERF_REPORT_TOOL_HTML_PAGE_HPP
#define PERF_REPORT_TOOL_HTML_PAGE_HPP

#include <string>

namespace perf::report_tool {

const char* page_style();
const char* page_script();
std::string html_escape(const std::string& text);

}  // namespace perf::report_tool

#endif  // PERF_REPORT_TOOL_HTML_PAGE_HPP
