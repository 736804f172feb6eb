// The HTML report page: a style sheet (page.css) and a script (page.js) that renders
// the data the page embeds (no network: inline CSS, script and SVG). Written by the
// runtime (PERF_REPORT=x.html embeds the JSON report itself) and by perf-report
// (tool/perf_report, which embeds its compact column form, or a diff); the script takes
// all three.
#ifndef PERF_RUNTIME_REPORT_FORMAT_HTML_PAGE_HPP
#define PERF_RUNTIME_REPORT_FORMAT_HTML_PAGE_HPP

#include <string>

namespace perf::report_format {

// The whole page: `data_json` (a JSON object) embedded, "</" escaped so that it
// cannot end its <script> element.
std::string html_page(const std::string& title, const std::string& data_json);

}  // namespace perf::report_format

#endif  // PERF_RUNTIME_REPORT_FORMAT_HTML_PAGE_HPP
