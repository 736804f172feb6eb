#include "exit_report/report_destination.hpp"

#include <fmt/format.h>

#include <string_view>

#include "core/settled_config.hpp"
#include "core/startup.hpp"
#include "exit_report/test_listing.hpp"

namespace perf::runtime {
namespace {

// PERF_REPORT, off for a run that only lists its tests (test_listing.hpp).
report_destination settle_report_destination(const std::function<const char*(const char*)>& getenv_fn) {
  report_destination result = parse_report_destination(getenv_fn);
  if (lists_tests_only(process_arguments())) result.where = report_destination::kind::off;
  return result;
}

// Its warning at start-up, with core's, not when the program exits.
PERF_RUNTIME_ON_START(settle_at_start) { current_report_destination(); }

}  // namespace

report_destination parse_report_destination(const std::function<const char*(const char*)>& getenv_fn) {
  report_destination result;
  const char* report = getenv_fn("PERF_REPORT");
  if (report == nullptr || *report == '\0') return result;
  const std::string_view value = report;
  if (value == "off") {
    result.where = report_destination::kind::off;
  } else if (value == "stderr" || value == "-") {
    result.where = report_destination::kind::standard_error;
  } else if (value.back() == '/') {
    result.warnings.push_back(
        fmt::format("PERF_REPORT='{}' names a directory, not a file; the report goes to stderr", value));
  } else {
    result.where = report_destination::kind::file;
    result.path = std::string(value);
  }
  return result;
}

const report_destination& current_report_destination() {
  return settled_config<report_destination, settle_report_destination>();
}

}  // namespace perf::runtime
