// Where the exit report goes: PERF_REPORT, the report's variable.
#ifndef PERF_RUNTIME_EXIT_REPORT_REPORT_DESTINATION_HPP
#define PERF_RUNTIME_EXIT_REPORT_REPORT_DESTINATION_HPP

#include <functional>
#include <string>
#include <vector>

namespace perf::runtime {

struct report_destination {
  enum class kind { standard_error, file, off };
  kind where = kind::standard_error;
  std::string path;  // for kind::file, with %p not yet expanded
  // One line when PERF_REPORT could not be used, naming the variable.
  std::vector<std::string> warnings;
};

// Reads PERF_REPORT through `getenv_fn` (a null result means unset).
report_destination parse_report_destination(const std::function<const char*(const char*)>& getenv_fn);

// Parsed on first use (the report's start-up makes that first use), its warning on
// stderr once; off, whatever PERF_REPORT says, in a run that only lists its tests
// (test_listing.hpp). Thread-safe.
const report_destination& current_report_destination();

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_EXIT_REPORT_REPORT_DESTINATION_HPP
