// The HTML page's style sheet and script (page.css, page.js), which the build embeds
// as C++ strings (page_assets.cpp.in): the library's own, for html_page.cpp.
#ifndef PERF_RUNTIME_REPORT_FORMAT_PAGE_ASSETS_HPP
#define PERF_RUNTIME_REPORT_FORMAT_PAGE_ASSETS_HPP

namespace perf::report_format {

extern const char* const page_style;
extern const char* const page_script;

}  // namespace perf::report_format

#endif  // PERF_RUNTIME_REPORT_FORMAT_PAGE_ASSETS_HPP
