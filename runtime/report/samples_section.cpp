#include "report/samples_section.hpp"

#include <fmt/format.h>

#include "core/json_string.hpp"
#include "core/startup.hpp"
#include "report/sections.hpp"
#include "report/text_format.hpp"

namespace perf::runtime {
namespace {

std::string where(const sampled_location& l) {
  if (l.file.empty()) return "";
  return l.line == 0 ? l.file : fmt::format("{}:{}", l.file, l.line);
}

std::string percent(double share) { return fmt::format("{:5.1f}%", share * 100); }

std::string locations_json(const std::vector<sampled_location>& locations, bool with_lines) {
  std::string out = "[";
  for (size_t i = 0; i < locations.size(); ++i) {
    const sampled_location& l = locations[i];
    out += fmt::format("{}{{\"function\": {}, \"file\": {}, ", i == 0 ? "" : ", ", json_string(l.function),
                       json_string(l.file));
    if (with_lines) out += fmt::format("\"line\": {}, ", l.line);
    out += fmt::format("\"samples\": {}, \"share\": {:.4f}}}", l.samples, l.share);
  }
  return out + "]";
}

std::string thread_name(const snapshot& s, long tid) {
  for (const thread_stats& t : s.threads)
    if (t.tid == tid && !t.name.empty()) return " (" + printable(t.name) + ")";
  return "";
}

const function_stats* measured_function(const snapshot& s, const std::string& name) {
  for (const function_stats& f : s.functions)
    if (f.name == name) return &f;
  return nullptr;
}

PERF_RUNTIME_ON_START(register_samples_section) {
  add_report_section({300, "samples", format_samples_json, format_samples_text});
}

}  // namespace

std::string format_samples_text(const snapshot& snap) {
  const sample_summary& s = snap.samples;
  if (s.hz == 0) return "";  // PERF_SAMPLE_HZ=0: the user knows
  std::string out = fmt::format("samples: {} at {} Hz of each thread's {} time, {} dropped\n", format_count(s.total),
                                s.hz, s.clock == "wall" ? "wall-clock" : "CPU", format_count(s.dropped));
  if (!s.stopped.empty()) out += "  sampling stopped: " + s.stopped + "\n";
  if (s.total == 0) return out;
  if (s.probe_samples != 0)
    out += fmt::format("  {} samples ({:.1f}%) inside perf's own probes, charged below to the code that called them\n",
                       format_count(s.probe_samples),
                       100.0 * static_cast<double>(s.probe_samples) / static_cast<double>(s.total));
  out += "  hottest functions (innermost frame in the program's own code):\n";
  for (const sampled_location& f : s.top_functions)
    out += fmt::format("  {} {:>8}  {}{}{}\n", percent(f.share), format_count(f.samples), printable(f.function),
                       f.file.empty() ? "" : "  ", printable(where(f)));
  out += "  hottest lines:\n";
  for (const sampled_location& l : s.top_lines)
    out += fmt::format("  {} {:>8}  {}  {}\n", percent(l.share), format_count(l.samples),
                       l.file.empty() ? "?" : printable(where(l)), printable(l.function));
  for (const sampled_thread& t : s.threads) {
    out += fmt::format("  thread {}{}: {} samples", t.tid, thread_name(snap, t.tid), format_count(t.samples));
    for (const sampled_location& f : t.top_functions)
      out += fmt::format("{} {} {}", &f == t.top_functions.data() ? ";" : ",", printable(f.function), percent(f.share));
    out += "\n";
  }
  if (!s.measured.empty()) out += "  measured functions, sampled share (samples inside, not in a measured callee):\n";
  for (const sampled_measured_function& m : s.measured) {
    const function_stats* f = measured_function(snap, m.name);
    out += fmt::format("  {} {:>8}  {}{}\n", percent(m.share), format_count(m.samples), printable(m.name),
                       f == nullptr ? "" : "  (self " + format_duration(f->self_ns) + ")");
  }
  return out;
}

std::string format_samples_json(const snapshot& snap) {
  const sample_summary& s = snap.samples;
  std::string out = fmt::format(
      "{{\"hz\": {}, \"clock\": {}, \"total\": {}, \"dropped\": {}, \"probe_samples\": {}, \"top\": {}, \"lines\": {}",
      s.hz, json_string(s.clock.empty() ? "cpu" : s.clock), s.total, s.dropped, s.probe_samples,
      locations_json(s.top_functions, false), locations_json(s.top_lines, true));
  out += ", \"threads\": [";
  for (size_t i = 0; i < s.threads.size(); ++i)
    out += fmt::format("{}{{\"tid\": {}, \"samples\": {}, \"top\": {}}}", i == 0 ? "" : ", ", s.threads[i].tid,
                       s.threads[i].samples, locations_json(s.threads[i].top_functions, false));
  out += "]";
  if (!s.stopped.empty()) out += ", \"stopped\": " + json_string(s.stopped);
  out += ", \"measured\": [";
  for (size_t i = 0; i < s.measured.size(); ++i)
    out += fmt::format("{}{{\"name\": {}, \"samples\": {}, \"share\": {:.4f}}}", i == 0 ? "" : ", ",
                       json_string(s.measured[i].name), s.measured[i].samples, s.measured[i].share);
  return out + "]}";
}

}  // namespace perf::runtime
