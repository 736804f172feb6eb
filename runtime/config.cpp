#include "config.hpp"

#include <fmt/format.h>

namespace perf::runtime {

config parse_config(const std::function<const char*(const char*)>& getenv_fn) {
  config result;
  if (const char* report = getenv_fn("PERF_REPORT"); report != nullptr && *report != '\0') {
    const std::string_view value = report;
    if (value == "off") {
      result.report.where = report_destination::kind::off;
    } else if (value == "stderr" || value == "-") {
      result.report.where = report_destination::kind::standard_error;
    } else if (value.back() == '/') {
      result.warnings.push_back(
          fmt::format("PERF_REPORT='{}' names a directory, not a file; the report goes to stderr", value));
    } else {
      result.report = {report_destination::kind::file, std::string(value)};
    }
  }
  if (const char* clock = getenv_fn("PERF_CLOCK")) result.clock = clock;
  return result;
}

std::string expand_pid(std::string_view pattern, long pid) {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '%' && i + 1 < pattern.size() && pattern[i + 1] == 'p') {
      out += std::to_string(pid);
      ++i;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

}  // namespace perf::runtime
