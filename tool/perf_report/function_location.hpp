// What tells functions apart across reports: name, file and line (docs/perf-report.md).
#ifndef PERF_REPORT_TOOL_FUNCTION_LOCATION_HPP
#define PERF_REPORT_TOOL_FUNCTION_LOCATION_HPP

#include <compare>
#include <cstddef>
#include <functional>
#include <string_view>

#include "parsed_report.hpp"

namespace perf::perf_report {

// A view of a function's name, file and line: valid while the strings it views are
// neither destroyed nor moved. Ordered as the tuple (name, file, line).
struct function_location {
  std::string_view name;
  std::string_view file;
  unsigned line = 0;

  static function_location of(const function_record& f) { return {f.name, f.file, f.line}; }
  friend auto operator<=>(const function_location&, const function_location&) = default;
};

struct function_location_hash {
  size_t operator()(const function_location& l) const {
    const size_t name = std::hash<std::string_view>()(l.name), file = std::hash<std::string_view>()(l.file);
    return name ^ (file * 0x9e3779b97f4a7c15u) ^ (static_cast<size_t>(l.line) << 1);
  }
};

}  // namespace perf::perf_report

#endif  // PERF_REPORT_TOOL_FUNCTION_LOCATION_HPP
