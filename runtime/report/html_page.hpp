// The HTML report page: a style sheet and a script that renders the data the page
// embeds (no network: inline CSS, script and SVG). Shared, as source, by the runtime
// (PERF_REPORT=x.html embeds the JSON report itself) and by perf-report (tool/report,
// which embeds its compact column form, or a diff); the script takes all three. It
// depends on nothing of the runtime.
#ifndef PERF_RUNTIME_REPORT_HTML_PAGE_HPP
#define PERF_RUNTIME_REPORT_HTML_PAGE_HPP

#include <string>

namespace perf::html_page {

// The whole page: `data_json` (a JSON object) embedded, "</" escaped so that it
// cannot end its <script> element.
std::string page(const std::string& title, const std::string& data_json);

}  // namespace perf::html_page

#endif  // PERF_RUNTIME_REPORT_HTML_PAGE_HPP
