// Text as the report's formats quote it: JSON strings (the report, the tick log's
// trace, perf::compare's results) and Prometheus / OpenMetrics label values (the live
// endpoint's /metrics). Both check UTF-8 alike: a well-formed sequence is copied, any
// other byte of 0x80 and above becomes U+FFFD, so that a name or label cut in the
// middle of a character still gives a document its readers accept.
#ifndef PERF_RUNTIME_REPORT_FORMAT_ESCAPING_HPP
#define PERF_RUNTIME_REPORT_FORMAT_ESCAPING_HPP

#include <string>
#include <string_view>

namespace perf::report_format {

// `text` as a quoted JSON string, control characters escaped.
std::string json_string(std::string_view text);

// Appends `text` to `out` as both metrics formats quote a label value (without the
// quotes): backslash, double quote and line feed escaped.
void append_label_value(std::string& out, std::string_view text);

}  // namespace perf::report_format

#endif  // PERF_RUNTIME_REPORT_FORMAT_ESCAPING_HPP
