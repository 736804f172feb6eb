// perf::format_json: the report as JSON; the field names are a documented contract
// (docs/report-format.md).
#include <fmt/format.h>

#include "core/report_sections.hpp"
#include "perf/report.hpp"
#include "report_format/escaping.hpp"
#include "report_format/schema.hpp"

namespace perf {

using report_format::json_string;

std::string format_json(const snapshot& s) {
  std::string out = fmt::format(
      "{{\n  \"schema_version\": {},\n  \"pid\": {},\n"
      "  \"clock\": {{\"source\": {}, \"ghz\": {}, \"frequency\": {}, \"resolution_ns\": {:.1f}, "
      "\"probe_ns\": {:.2f}, \"probe_inside_ns\": {:.2f}, \"compensated\": {}}},\n",
      report_format::schema_version, s.pid, json_string(s.clock.source), s.clock.ghz, json_string(s.clock.frequency),
      s.clock.resolution_ns, s.clock.probe_ns, s.clock.probe_inside_ns, s.clock.compensated);
  out += "  \"functions\": [";
  for (size_t i = 0; i < s.functions.size(); ++i) {
    const function_stats& f = s.functions[i];
    out += fmt::format(
        "{}\n    {{\"name\": {}, \"file\": {}, \"line\": {}, \"calls\": {}, \"total_ns\": {:.1f}, \"self_ns\": {:.1f}, "
        "\"mean_ns\": {:.1f}, \"min_ns\": {:.1f}, \"max_ns\": {:.1f}, \"stddev_ns\": {:.1f}, \"p50_ns\": {:.1f}, "
        "\"p90_ns\": {:.1f}, \"p99_ns\": {:.1f}, \"p999_ns\": {:.1f}, \"alloc_count\": {:.2f}, \"alloc_bytes\": "
        "{:.1f}, "
        "\"moments\": {{\"mean_ns\": {}, \"m2_ns2\": {}}}, \"alloc_total_count\": {}, \"alloc_total_bytes\": {}, "
        "\"probe_dominated\": {}, \"histogram\": [",
        i == 0 ? "" : ",", json_string(f.name), json_string(f.file), f.line, f.calls, f.total_ns, f.self_ns, f.mean_ns,
        f.min_ns, f.max_ns, f.stddev_ns, f.p50_ns, f.p90_ns, f.p99_ns, f.p999_ns, f.alloc_count, f.alloc_bytes,
        f.mean_ns, f.m2_ns2, f.alloc_total_count, f.alloc_total_bytes, f.probe_dominated);
    for (size_t b = 0; b < f.histogram.size(); ++b)
      out += fmt::format("{}[{}, {}]", b == 0 ? "" : ", ", f.histogram[b].first, f.histogram[b].second);
    out += "]}";
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
