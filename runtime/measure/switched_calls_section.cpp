// The switched calls' section of the report (perf::switched_calls): the calls that
// ended on another thread or stack than they began on, which no figure of the
// function table holds.
#include <fmt/format.h>

#include "core/report_sections.hpp"
#include "core/startup.hpp"
#include "perf/report.hpp"
#include "report_format/escaping.hpp"
#include "report_format/text_format.hpp"

namespace perf::runtime {

using report_format::format_count;
using report_format::format_count_of;
using report_format::json_string;

namespace {

std::string switched_calls_lines(const snapshot& s) {
  if (s.switched.empty()) return {};
  uint64_t calls = 0;
  for (const switched_calls& f : s.switched) calls += f.calls;
  std::string out = fmt::format(
      "switched calls: {} ended on another thread or stack than {} began on (a fiber or coroutine switched "
      "inside {}), in no figure above:\n",
      format_count_of(calls, "call"), calls == 1 ? "it" : "they", calls == 1 ? "it" : "them");
  for (const switched_calls& f : s.switched)
    out += fmt::format("  {}  {}{}\n", format_count(f.calls), f.name,
                       f.file.empty() ? std::string() : fmt::format(" ({}:{})", f.file, f.line));
  return out;
}

std::string switched_calls_json(const snapshot& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.switched.size(); ++i) {
    const switched_calls& f = s.switched[i];
    out += fmt::format("{}{{\"name\": {}, \"file\": {}, \"line\": {}, \"calls\": {}}}", i == 0 ? "" : ", ",
                       json_string(f.name), json_string(f.file), f.line, f.calls);
  }
  return out + "]";
}

PERF_RUNTIME_ON_START(register_switched_calls_section) {
  add_report_section({20, "switched_calls", switched_calls_json, switched_calls_lines});
}

}  // namespace
}  // namespace perf::runtime
