// JSON string literals for the report and trace writers.
#ifndef PERF_RUNTIME_CORE_JSON_STRING_HPP
#define PERF_RUNTIME_CORE_JSON_STRING_HPP

#include <string>
#include <string_view>

namespace perf::runtime {

// `text` as a quoted JSON string, control characters escaped.
std::string json_string(std::string_view text);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_JSON_STRING_HPP
