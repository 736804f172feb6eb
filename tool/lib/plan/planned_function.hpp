// A selected function as one translation unit planned it: the input of the edit set.
#ifndef PERF_TOOL_PLANNED_FUNCTION_HPP
#define PERF_TOOL_PLANNED_FUNCTION_HPP

#include <string>
#include <tuple>

namespace perf::tool {

struct planned_function {
  std::string file;  // real path of the file its name is spelled in
  unsigned line = 0, column = 0;
  std::string name;         // the report's name
  std::string skip_reason;  // non-empty: this unit would not measure it, and why
  // Where its scope statement goes: right after the body's '{'. Empty `body_file`
  // when there is no such place (a defaulted function, say).
  std::string body_file;
  unsigned body_offset = 0;
  std::string existing;   // the scope statement an earlier run left there, if any
  std::string statement;  // the scope statement this unit wants there
  std::string unit;       // real path of the main file of the unit that planned it
  bool marked = false;    // by hand (the attribute or its annotate spelling), not only by a --filter

  auto key() const {
    return std::tie(body_file, body_offset, file, line, column, name, skip_reason, existing, statement, unit, marked);
  }
  bool operator<(const planned_function& other) const { return key() < other.key(); }
};

}  // namespace perf::tool

#endif  // PERF_TOOL_PLANNED_FUNCTION_HPP
