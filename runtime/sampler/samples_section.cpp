#include "sampler/samples_section.hpp"

#include <fmt/format.h>

#include <map>
#include <set>

#include "core/report_sections.hpp"
#include "core/startup.hpp"
#include "report_format/escaping.hpp"
#include "report_format/text_format.hpp"

namespace perf::runtime {

using report_format::below;
using report_format::display_width;
using report_format::elided_signature;
using report_format::format_count;
using report_format::format_count_of;
using report_format::format_duration;
using report_format::json_string;
using report_format::printable;
using report_format::shortened;

namespace {

// A location's file, below the sources directory when it lies there (as in the
// function table), and its line.
std::string where(const sampled_location& l, const std::string& sources) {
  if (l.file.empty()) return "";
  const std::string file = below(l.file, sources);
  return l.line == 0 ? file : fmt::format("{}:{}", file, l.line);
}

std::string percent(double share) { return fmt::format("{:5.1f}%", share * 100); }

// The section fits 120 columns: a name and a file keep this many at most.
constexpr size_t name_columns = 52;
constexpr size_t file_columns = 30;
constexpr size_t line_columns = 120;

// What the section calls each function: its elided signature where no other
// function listed has the same, else its whole signature; cut to `name_columns`.
class function_names {
 public:
  explicit function_names(const sample_summary& s) {
    std::map<std::string, std::set<std::string>> signatures_of;
    auto add = [&](const std::vector<sampled_location>& list) {
      for (const sampled_location& l : list) signatures_of[elided_signature(l.function)].insert(l.function);
    };
    add(s.top_functions);
    add(s.top_lines);
    for (const sampled_thread& t : s.threads) add(t.top_functions);
    for (const auto& [elided, signatures] : signatures_of)
      for (const std::string& signature : signatures)
        shown_[signature] = shortened(printable(signatures.size() == 1 ? elided : signature), name_columns);
  }
  const std::string& operator()(const std::string& signature) const { return shown_.at(signature); }

 private:
  std::map<std::string, std::string> shown_;
};

// The first line: how many samples, from what; and a second one with the evidence
// behind the shares when a timer delivered fewer signals than the rate asked for
// (the kernel checks a CPU-time timer at its tick, and one signal then counts several
// periods).
std::string first_line(const sample_summary& s) {
  const char* time = s.clock == "wall" ? "wall-clock" : "CPU";
  if (s.source == "timer" && s.interrupts != 0 && s.total != 0) {
    const double delivered =
        static_cast<double>(s.hz) * static_cast<double>(s.interrupts) / static_cast<double>(s.total);
    if (delivered < 0.9 * s.hz)
      return fmt::format(
          "samples: {} of each thread's {} time, {} dropped\n"
          "  {} Hz requested, timer delivered {:.0f} Hz{}: shares from {}\n",
          format_count(s.total), time, format_count(s.dropped), s.hz, delivered,
          s.clock == "wall" ? "" : " (kernel tick)", format_count_of(s.interrupts, "interrupt"));
  }
  const std::string source = s.source == "perf_event" ? " (perf_event task clock)"
                             : s.source.empty()       ? ""
                                                      : " (" + s.source + ")";
  return fmt::format("samples: {} at {} Hz of each thread's {} time{}, {} dropped\n", format_count(s.total), s.hz, time,
                     source, format_count(s.dropped));
}

// A share and its 95% interval: " 75.0% (70.4-79.2)".
std::string share_with_interval(const sampled_location& l) {
  return fmt::format("{} ({:.1f}-{:.1f})", percent(l.share), l.share_low * 100, l.share_high * 100);
}

std::string locations_json(const std::vector<sampled_location>& locations, bool with_lines) {
  std::string out = "[";
  for (size_t i = 0; i < locations.size(); ++i) {
    const sampled_location& l = locations[i];
    out += fmt::format("{}{{\"function\": {}, \"file\": {}, ", i == 0 ? "" : ", ", json_string(l.function),
                       json_string(l.file));
    if (with_lines) out += fmt::format("\"line\": {}, ", l.line);
    out += fmt::format("\"samples\": {}, \"share\": {:.4f}, \"share_low\": {:.4f}, \"share_high\": {:.4f}}}", l.samples,
                       l.share, l.share_low, l.share_high);
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
  std::string out = first_line(s);
  if (!s.stopped.empty()) out += "  sampling stopped: " + s.stopped + "\n";
  if (s.unsampled_threads != 0)
    out += fmt::format("  {} not sampled: {}\n", format_count_of(s.unsampled_threads, "thread"), s.unsampled_why);
  if (s.total == 0) return out;
  const function_names name(s);
  const std::string sources = sources_directory(snap);
  if (s.probe_samples != 0)
    out += fmt::format("  {} ({:.1f}%) inside perf's own probes, charged below to the code that called them\n",
                       format_count_of(s.probe_samples, "sample"),
                       100.0 * static_cast<double>(s.probe_samples) / static_cast<double>(s.total));
  out += "  hottest functions (innermost frame in the program's own code; share, 95% interval, samples):\n";
  for (const sampled_location& f : s.top_functions)
    out += fmt::format("  {} {:>8}  {}{}{}\n", share_with_interval(f), format_count(f.samples), name(f.function),
                       f.file.empty() ? "" : "  ", shortened(printable(where(f, sources)), file_columns));
  out += "  hottest lines:\n";
  for (const sampled_location& l : s.top_lines)
    out += fmt::format("  {} {:>8}  {}  {}\n", percent(l.share), format_count(l.samples),
                       l.file.empty() ? "?" : shortened(printable(where(l, sources)), file_columns), name(l.function));
  for (const sampled_thread& t : s.threads) {
    std::string line =
        fmt::format("  thread {}{}: {}", t.tid, thread_name(snap, t.tid), format_count_of(t.samples, "sample"));
    for (const sampled_location& f : t.top_functions) {
      const std::string entry =
          fmt::format("{} {} {}", &f == t.top_functions.data() ? ";" : ",", name(f.function), percent(f.share));
      if (display_width(line) + display_width(entry) + 5 > line_columns) {  // room for ", ..."
        line += ", ...";
        break;
      }
      line += entry;
    }
    out += line + "\n";
  }
  if (!s.measured.empty())
    out += fmt::format(
        "  measured functions, sampled share of {} time (samples inside, not in a measured callee); self time "
        "wall-clock:\n",
        s.clock == "wall" ? "wall-clock" : "CPU");
  for (const sampled_measured_function& m : s.measured) {
    const function_stats* f = measured_function(snap, m.name);
    out += fmt::format("  {} {:>8}  {}{}\n", percent(m.share), format_count(m.samples),
                       shortened(printable(m.name), name_columns),
                       f == nullptr ? "" : "  (self " + format_duration(f->self_ns) + ")");
  }
  return out;
}

std::string format_samples_json(const snapshot& snap) {
  const sample_summary& s = snap.samples;
  std::string out = fmt::format(
      "{{\"hz\": {}, \"clock\": {}, \"source\": {}, \"total\": {}, \"interrupts\": {}, \"dropped\": {}, "
      "\"probe_samples\": {}, \"top\": {}, \"lines\": {}",
      s.hz, json_string(s.clock.empty() ? "cpu" : s.clock), json_string(s.source), s.total, s.interrupts, s.dropped,
      s.probe_samples, locations_json(s.top_functions, false), locations_json(s.top_lines, true));
  out += ", \"threads\": [";
  for (size_t i = 0; i < s.threads.size(); ++i)
    out += fmt::format("{}{{\"tid\": {}, \"samples\": {}, \"top\": {}}}", i == 0 ? "" : ", ", s.threads[i].tid,
                       s.threads[i].samples, locations_json(s.threads[i].top_functions, false));
  out += "]";
  if (!s.stopped.empty()) out += ", \"stopped\": " + json_string(s.stopped);
  out += fmt::format(", \"unsampled_threads\": {}", s.unsampled_threads);
  if (s.unsampled_threads != 0) out += ", \"unsampled_why\": " + json_string(s.unsampled_why);
  out += ", \"measured\": [";
  for (size_t i = 0; i < s.measured.size(); ++i)
    out += fmt::format("{}{{\"name\": {}, \"samples\": {}, \"share\": {:.4f}}}", i == 0 ? "" : ", ",
                       json_string(s.measured[i].name), s.measured[i].samples, s.measured[i].share);
  return out + "]}";
}

}  // namespace perf::runtime
