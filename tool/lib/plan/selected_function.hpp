// A selected function as the whole run decided it: measured, or skipped and why.
#ifndef PERF_TOOL_SELECTED_FUNCTION_HPP
#define PERF_TOOL_SELECTED_FUNCTION_HPP

#include <string>
#include <tuple>

namespace perf::tool {

struct selected_function {
  std::string file;
  unsigned line = 0, column = 0;
  std::string name;
  std::string skip_reason;  // empty when measured
  std::string renamed_by;   // measured, though these units name it otherwise: "UNIT names it NAME; ..."
  bool marked = false;      // by hand in some unit, not only by a --filter: a skip gets its own warning

  auto key() const { return std::tie(file, line, column, name, skip_reason); }
  bool operator<(const selected_function& other) const { return key() < other.key(); }
  bool operator==(const selected_function& other) const { return key() == other.key(); }
};

}  // namespace perf::tool

#endif  // PERF_TOOL_SELECTED_FUNCTION_HPP
