// perf::format_text: the table the program prints at exit.
#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "core/report_sections.hpp"
#include "perf/report.hpp"
#include "report_format/function_columns.hpp"
#include "report_format/text_format.hpp"

namespace perf {
namespace {

using report_format::below;
using report_format::display_width;
using report_format::format_count;
using report_format::format_count_of;
using report_format::format_duration;
using report_format::format_per_call;
using report_format::pad;
using report_format::printable;
using report_format::shortened;

// The widest a function's name is shown in the table.
constexpr size_t max_name_width = 80;

// The table of measured functions, under a line naming the directory their paths
// are relative to: the name, the text cells of report_format::function_columns (those
// per call only when allocations are counted), the location.
std::string function_table(const std::vector<function_stats>& functions, const std::string& directory,
                           double resolution_ns, bool with_allocations) {
  using report_format::text_cell;
  std::string out;
  auto duration = [&](double ns) { return format_duration(ns, resolution_ns); };
  std::vector<const report_format::function_column*> shown;
  for (const report_format::function_column& c : report_format::function_columns)
    if (c.cell != text_cell::none && (c.cell != text_cell::per_call || with_allocations)) shown.push_back(&c);
  std::vector<std::string> headings = {"function"};
  for (const report_format::function_column* c : shown) headings.emplace_back(c->heading);
  headings.push_back("where");
  if (!directory.empty()) out += fmt::format("sources under {}\n", printable(directory));
  std::vector<std::vector<std::string>> rows;
  bool any_estimated = false;
  for (const function_stats& f : functions) {
    // Figures estimated from a sample of the calls (adaptive timing) read "~".
    const bool estimated = f.timed_calls < f.calls;
    any_estimated |= estimated;
    std::vector<std::string> row = {shortened(printable(f.name), max_name_width) + (f.probe_dominated ? " *" : "")};
    for (const report_format::function_column* c : shown) {
      switch (c->cell) {
        case text_cell::count: row.push_back(format_count(c->count(f))); break;
        case text_cell::duration: row.push_back(duration(c->number(f))); break;
        // Through fmt: GCC 12 at -O3 reads `"~" + std::string` as an overlapping copy (-Wrestrict).
        case text_cell::estimate:
          row.push_back(fmt::format("{}{}", estimated ? "~" : "", duration(c->number(f))));
          break;
        case text_cell::per_call: row.push_back(format_per_call(c->number(f))); break;
        case text_cell::none: break;
      }
    }
    row.push_back(f.file.empty() ? std::string() : fmt::format("{}:{}", printable(below(f.file, directory)), f.line));
    rows.push_back(std::move(row));
  }
  const size_t columns = headings.size();
  std::vector<size_t> widths(columns);
  for (size_t c = 0; c < columns; ++c) {
    widths[c] = display_width(headings[c]);
    for (const auto& row : rows) widths[c] = std::max(widths[c], display_width(row[c]));
  }
  auto append_row = [&](const auto& cells) {
    std::string line;
    for (size_t c = 0; c < columns; ++c) {
      // Names and locations read left to right; numbers line up on the right.
      const bool text_column = c == 0 || c == columns - 1;
      if (c != 0) line += "  ";
      line += pad(cells[c], c == columns - 1 ? 0 : widths[c], !text_column);
    }
    out += line.erase(line.find_last_not_of(' ') + 1) + "\n";
  };
  append_row(headings);
  for (const auto& row : rows) append_row(row);
  if (any_estimated)
    out +=
        "~ estimated: timed on a random sample of its calls, every call counted (PERF_TIMING=adaptive); min, max, "
        "stddev and percentiles are the timed calls'\n";
  return out;
}

// What the durations are, what the samples are (when the run sampled), and how far the
// probe's cost moved while it was measured.
std::string durations_line(const snapshot& s) {
  const clock_stats& c = s.clock;
  std::string out = "durations are wall-clock: a call's time includes any time its thread waited or was preempted";
  if (s.samples.hz != 0)
    out += s.samples.clock == "wall" ? "; samples are wall-clock time too: a thread is sampled also while it waits"
                                     : "; samples are CPU time: a thread is sampled only while it runs";
  if (c.probe_high_ns > c.probe_ns * 1.03)
    out += fmt::format("; the probe measured {} to {} at start-up, the lowest {}", format_duration(c.probe_ns),
                       format_duration(c.probe_high_ns), c.compensated ? "subtracted" : "shown");
  return out + "\n";
}

}  // namespace

std::string format_text(const snapshot& s) {
  uint64_t threads = 0, exited = 0;
  for (const thread_stats& t : s.threads) {
    threads += t.threads;
    exited += t.exited ? t.threads : 0;
  }
  std::string out = fmt::format(
      "perf-instrument report (pid {}): {} measured on {} ({} exited); clock {} at {:.3f} GHz ({}{}){}\n", s.pid,
      format_count_of(s.functions.size(), "function"), format_count_of(threads, "thread"), format_count(exited),
      s.clock.source, s.clock.ghz, s.clock.frequency,
      s.clock.resolution_ns > 0 ? ", resolution " + format_duration(s.clock.resolution_ns) : "",
      s.clock.probe_ns > 0 ? fmt::format("; probe {} a call ({} inside), {}", format_duration(s.clock.probe_ns),
                                         format_duration(s.clock.probe_inside_ns),
                                         s.clock.compensated ? "subtracted" : "not subtracted (PERF_COMPENSATE=off)")
                           : "");
  if (!s.functions.empty()) {
    out += durations_line(s);
    out += function_table(s.functions, runtime::sources_directory(s), s.clock.resolution_ns,
                          s.allocations.counting != allocation_counting::inactive);
  }
  for (const runtime::report_section& section : runtime::report_sections()) out += section.text(s);
  return out;
}

}  // namespace perf
