#include "report_section.hpp"

#include <fmt/format.h>

#include "../report/json_string.hpp"

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

}  // namespace

std::string format_samples_text(const sample_summary& s) {
  if (s.hz == 0) return "samples: off (PERF_SAMPLE_HZ=0)\n";
  std::string out = fmt::format("samples: {} at {} Hz of each thread's {} time, {} dropped\n", s.total, s.hz,
                                s.clock == "wall" ? "wall-clock" : "CPU", s.dropped);
  if (s.total == 0) return out;
  out += "  hottest functions (innermost frame of the program's own code):\n";
  for (const sampled_location& f : s.top_functions)
    out += fmt::format("  {} {:>8}  {}{}{}\n", percent(f.share), f.samples, f.function, f.file.empty() ? "" : "  ",
                       where(f));
  out += "  hottest lines:\n";
  for (const sampled_location& l : s.top_lines)
    out += fmt::format("  {} {:>8}  {}  {}\n", percent(l.share), l.samples, l.file.empty() ? "?" : where(l),
                       l.function);
  for (const sampled_thread& t : s.threads) {
    out += fmt::format("  thread {}: {} samples", t.tid, t.samples);
    for (const sampled_location& f : t.top_functions)
      out += fmt::format("{} {} {}", &f == t.top_functions.data() ? ";" : ",", f.function, percent(f.share));
    out += "\n";
  }
  return out;
}

std::string format_samples_json(const sample_summary& s) {
  std::string out =
      fmt::format("\"samples\": {{\"hz\": {}, \"clock\": {}, \"total\": {}, \"dropped\": {}, \"top\": {}, \"lines\": {}",
                  s.hz, json_string(s.clock.empty() ? "cpu" : s.clock), s.total, s.dropped,
                  locations_json(s.top_functions, false), locations_json(s.top_lines, true));
  out += ", \"threads\": [";
  for (size_t i = 0; i < s.threads.size(); ++i)
    out += fmt::format("{}{{\"tid\": {}, \"samples\": {}, \"top\": {}}}", i == 0 ? "" : ", ", s.threads[i].tid,
                       s.threads[i].samples, locations_json(s.threads[i].top_functions, false));
  out += "], \"measured\": [";
  for (size_t i = 0; i < s.measured.size(); ++i)
    out += fmt::format("{}{{\"name\": {}, \"samples\": {}, \"share\": {:.4f}}}", i == 0 ? "" : ", ",
                       json_string(s.measured[i].name), s.measured[i].samples, s.measured[i].share);
  return out + "]}";
}

}  // namespace perf::runtime
