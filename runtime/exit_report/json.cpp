// perf::format_json: the report as JSON; the field names are a documented contract
// (docs/report-format.md). A function's row is report_format::function_columns'.
#include <fmt/format.h>

#include "core/report_sections.hpp"
#include "perf/report.hpp"
#include "report_format/escaping.hpp"
#include "report_format/function_columns.hpp"
#include "report_format/schema.hpp"

namespace perf {

using report_format::json_string;

std::string format_json(const snapshot& s) {
  std::string out = fmt::format(
      "{{\n  \"schema_version\": {},\n  \"pid\": {},\n"
      "  \"clock\": {{\"source\": {}, \"ghz\": {}, \"frequency\": {}, \"resolution_ns\": {:.1f}, "
      "\"probe_ns\": {:.2f}, \"probe_inside_ns\": {:.2f}, \"probe_high_ns\": {:.2f}, \"compensated\": {}, "
      "\"durations\": \"wall\"}},\n",
      report_format::schema_version, s.pid, json_string(s.clock.source), s.clock.ghz, json_string(s.clock.frequency),
      s.clock.resolution_ns, s.clock.probe_ns, s.clock.probe_inside_ns, s.clock.probe_high_ns, s.clock.compensated);
  out += "  \"functions\": [";
  for (size_t i = 0; i < s.functions.size(); ++i) {
    out += i == 0 ? "\n    " : ",\n    ";
    report_format::append_function_json(out, s.functions[i]);
  }
  out += s.functions.empty() ? "],\n" : "\n  ],\n";
  out += "  \"threads\": [";
  for (size_t i = 0; i < s.threads.size(); ++i) {
    const thread_stats& t = s.threads[i];
    out += fmt::format(
        "{}\n    {{\"tid\": {}, \"name\": {}, \"threads\": {}, \"calls\": {}, \"exited\": {}, \"tick_events\": {}, "
        "\"tick_dropped\": {}}}",
        i == 0 ? "" : ",", t.tid, json_string(t.name), t.threads, t.calls, t.exited, t.tick_events, t.tick_dropped);
  }
  out += s.threads.empty() ? "]" : "\n  ]";
  for (const runtime::report_section& section : runtime::report_sections())
    out += fmt::format(",\n  {}: {}", json_string(section.json_key), section.json(s));
  return out + "\n}\n";
}

}  // namespace perf
