// perf::format_json: the report as JSON; the field names are a documented contract
// (docs/report-format.md).
#include <fmt/format.h>

#include "perf/report.hpp"

namespace perf {
namespace {

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20)
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        else
          out += c;
    }
  }
  return out + "\"";
}

}  // namespace

std::string format_json(const snapshot& s) {
  std::string out = fmt::format("{{\n  \"pid\": {},\n  \"clock\": {{\"source\": {}, \"ghz\": {}, \"frequency\": {}}},\n",
                                s.pid, quoted(s.clock.source), s.clock.ghz, quoted(s.clock.frequency));
  out += "  \"functions\": [";
  for (size_t i = 0; i < s.functions.size(); ++i) {
    const function_stats& f = s.functions[i];
    out += fmt::format(
        "{}\n    {{\"name\": {}, \"file\": {}, \"line\": {}, \"calls\": {}, \"total_ns\": {:.1f}, \"self_ns\": {:.1f}, "
        "\"mean_ns\": {:.1f}, \"min_ns\": {:.1f}, \"max_ns\": {:.1f}, \"stddev_ns\": {:.1f}, \"p50_ns\": {:.1f}, "
        "\"p90_ns\": {:.1f}, \"p99_ns\": {:.1f}, \"p999_ns\": {:.1f}}}",
        i == 0 ? "" : ",", quoted(f.name), quoted(f.file), f.line, f.calls, f.total_ns, f.self_ns, f.mean_ns,
        f.min_ns, f.max_ns, f.stddev_ns, f.p50_ns, f.p90_ns, f.p99_ns, f.p999_ns);
  }
  out += s.functions.empty() ? "],\n" : "\n  ],\n";
  out += "  \"threads\": [";
  for (size_t i = 0; i < s.threads.size(); ++i) {
    const thread_stats& t = s.threads[i];
    out += fmt::format("{}\n    {{\"tid\": {}, \"name\": {}, \"calls\": {}, \"exited\": {}}}", i == 0 ? "" : ",",
                       t.tid, quoted(t.name), t.calls, t.exited);
  }
  out += s.threads.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return out;
}

}  // namespace perf
