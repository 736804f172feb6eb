// perf::format_json: the report as JSON; the field names are a documented contract
// (docs/report-format.md).
#include <fmt/format.h>

#include <iterator>

#include "core/report_sections.hpp"
#include "perf/report.hpp"
#include "report_format/escaping.hpp"
#include "report_format/schema.hpp"

namespace perf {

using report_format::function_field;
using report_format::json_name;
using report_format::json_string;
using report_format::moments_field;

namespace {

// One functions[] row: every field of report_format::function_fields, in its order.
void append_function(std::string& out, const function_stats& f) {
  auto to = std::back_inserter(out);
  out += '{';
  const char* separator = "";
  for (const auto& field : report_format::function_fields) {
    fmt::format_to(to, "{}\"{}\": ", separator, field.json);
    separator = ", ";
    switch (field.field) {
      case function_field::name: out += json_string(f.name); break;
      case function_field::file: out += json_string(f.file); break;
      case function_field::line: fmt::format_to(to, "{}", f.line); break;
      case function_field::calls: fmt::format_to(to, "{}", f.calls); break;
      case function_field::timed_calls: fmt::format_to(to, "{}", f.timed_calls); break;
      case function_field::total_ns: fmt::format_to(to, "{:.1f}", f.total_ns); break;
      case function_field::self_ns: fmt::format_to(to, "{:.1f}", f.self_ns); break;
      case function_field::mean_ns: fmt::format_to(to, "{:.1f}", f.mean_ns); break;
      case function_field::mean_ns_low: fmt::format_to(to, "{:.1f}", f.mean_ns_low); break;
      case function_field::mean_ns_high: fmt::format_to(to, "{:.1f}", f.mean_ns_high); break;
      case function_field::min_ns: fmt::format_to(to, "{:.1f}", f.min_ns); break;
      case function_field::max_ns: fmt::format_to(to, "{:.1f}", f.max_ns); break;
      case function_field::stddev_ns: fmt::format_to(to, "{:.1f}", f.stddev_ns); break;
      case function_field::p50_ns: fmt::format_to(to, "{:.1f}", f.p50_ns); break;
      case function_field::p90_ns: fmt::format_to(to, "{:.1f}", f.p90_ns); break;
      case function_field::p99_ns: fmt::format_to(to, "{:.1f}", f.p99_ns); break;
      case function_field::p999_ns: fmt::format_to(to, "{:.1f}", f.p999_ns); break;
      case function_field::alloc_count: fmt::format_to(to, "{:.2f}", f.alloc_count); break;
      case function_field::alloc_bytes: fmt::format_to(to, "{:.1f}", f.alloc_bytes); break;
      case function_field::moments:  // exact, for merging (perf-report)
        fmt::format_to(to, "{{\"{}\": {}, \"{}\": {}}}", json_name(moments_field::mean_ns), f.timed_mean_ns,
                       json_name(moments_field::m2_ns2), f.m2_ns2);
        break;
      case function_field::alloc_total_count: fmt::format_to(to, "{}", f.alloc_total_count); break;
      case function_field::alloc_total_bytes: fmt::format_to(to, "{}", f.alloc_total_bytes); break;
      case function_field::probe_dominated: fmt::format_to(to, "{}", f.probe_dominated); break;
      case function_field::histogram:
        out += '[';
        for (size_t b = 0; b < f.histogram.size(); ++b)
          fmt::format_to(to, "{}[{}, {}]", b == 0 ? "" : ", ", f.histogram[b].first, f.histogram[b].second);
        out += ']';
        break;
    }
  }
  out += '}';
}

}  // namespace

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
    append_function(out, s.functions[i]);
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
