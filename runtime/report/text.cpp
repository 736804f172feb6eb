// perf::format_text: the table the program prints at exit.
#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <optional>

#include "perf/report.hpp"

namespace perf {
namespace {

// Three significant digits in the largest unit that keeps the value at least 1.
std::string format_duration(double ns) {
  static constexpr const char* units[] = {"ns", "µs", "ms", "s"};
  int unit = 0;
  while (unit < 3 && ns >= 999.5) {
    ns /= 1000;
    ++unit;
  }
  const int decimals = ns >= 99.95 ? 0 : ns >= 9.995 ? 1 : 2;
  return fmt::format("{:.{}f} {}", ns, decimals, units[unit]);
}

std::string format_count(uint64_t n) {
  const std::string digits = std::to_string(n);
  std::string grouped;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0) grouped += ',';
    grouped += digits[i];
  }
  return grouped;
}

// `text` on one line: control characters written as C escapes.
std::string printable(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\x{:02x}", static_cast<unsigned>(c));
    else out += c;
  }
  return out;
}

// Display width of UTF-8 text, counting code points.
size_t display_width(const std::string& text) {
  return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

// `name` cut to `width` display columns, keeping both ends ("…" between): a
// template's arguments must not push the numbers off the screen. JSON keeps it whole.
std::string shortened(const std::string& name, size_t width) {
  if (display_width(name) <= width) return name;
  const size_t head = (width - 1) / 2, tail = width - 1 - head;
  auto byte_of_column = [&](size_t column) {  // where the code point starting at `column` begins
    size_t seen = 0;
    for (size_t i = 0; i < name.size(); ++i)
      if ((name[i] & 0xC0) != 0x80 && seen++ == column) return i;
    return name.size();
  };
  return name.substr(0, byte_of_column(head)) + "…" + name.substr(byte_of_column(display_width(name) - tail));
}

// `text` padded with spaces to `width` display columns, on the left or the right.
std::string pad(const std::string& text, size_t width, bool right_align) {
  const size_t shown = display_width(text);
  const std::string fill(width > shown ? width - shown : 0, ' ');
  return right_align ? fill + text : text + fill;
}

// The directory, ending in '/', that every function's file lies in ("" if none):
// the table shows paths below it, the JSON report the whole paths.
std::string common_directory(const std::vector<function_stats>& functions) {
  std::optional<std::string> common;
  for (const function_stats& f : functions) {
    if (f.file.empty()) continue;
    const std::string directory = f.file.substr(0, f.file.rfind('/') + 1);  // "" without a '/'
    if (!common) {
      common = directory;
      continue;
    }
    size_t shared = 0;
    while (shared < common->size() && shared < directory.size() && (*common)[shared] == directory[shared]) ++shared;
    const size_t slash = shared == 0 ? std::string::npos : common->rfind('/', shared - 1);
    common->resize(slash == std::string::npos ? 0 : slash + 1);
  }
  return common.value_or("");
}

// The tick log's lines under the table: the totals, and the threads whose rings
// overwrote events, if any.
std::string ticklog_lines(const ticklog_stats& t, const std::vector<thread_stats>& threads) {
  if (!t.enabled) return "tick log: off (PERF_TICKS=off)\n";
  std::string out =
      fmt::format("tick log: {} event{} kept, {} dropped (ring of {} events per thread{})\n", format_count(t.events),
                  t.events == 1 ? "" : "s", format_count(t.dropped), format_count(t.ring_events),
                  t.dropped == 0 ? "" : "; PERF_RING_EVENTS keeps more");
  for (const thread_stats& thread : threads)
    if (thread.tick_dropped != 0)
      out += fmt::format("  thread {} ({}): {} kept, {} dropped\n", thread.tid, printable(thread.name),
                         format_count(thread.tick_events), format_count(thread.tick_dropped));
  return out;
}

}  // namespace

// The widest a function's name is shown in the table.
constexpr size_t max_name_width = 80;

std::string format_text(const snapshot& s) {
  size_t exited = 0;
  for (const thread_stats& t : s.threads) exited += t.exited ? 1 : 0;
  std::string out = fmt::format(
      "perf-instrument report (pid {}): {} function{} measured on {} thread{} ({} exited); clock {} at {:.3f} GHz ({})\n",
      s.pid, s.functions.size(), s.functions.size() == 1 ? "" : "s", s.threads.size(),
      s.threads.size() == 1 ? "" : "s", exited, s.clock.source, s.clock.ghz, s.clock.frequency);
  if (s.threads.empty()) return out;  // nothing measured, nothing logged
  if (s.functions.empty()) return out + ticklog_lines(s.ticklog, s.threads);

  static constexpr const char* headings[] = {"function", "calls", "total", "self", "mean", "min",
                                             "max",      "stddev", "p50",  "p99",  "where"};
  const std::string directory = common_directory(s.functions);
  if (!directory.empty()) out += fmt::format("sources under {}\n", printable(directory));
  std::vector<std::vector<std::string>> rows;
  for (const function_stats& f : s.functions) {
    rows.push_back({shortened(printable(f.name), max_name_width), format_count(f.calls), format_duration(f.total_ns), format_duration(f.self_ns),
                    format_duration(f.mean_ns), format_duration(f.min_ns), format_duration(f.max_ns),
                    format_duration(f.stddev_ns), format_duration(f.p50_ns), format_duration(f.p99_ns),
                    f.file.empty() ? std::string()
                                   : fmt::format("{}:{}", printable(f.file.substr(directory.size())), f.line)});
  }
  constexpr size_t columns = std::size(headings);
  size_t widths[columns];
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
  append_row(std::vector<std::string>(std::begin(headings), std::end(headings)));
  for (const auto& row : rows) append_row(row);
  return out + ticklog_lines(s.ticklog, s.threads);
}

}  // namespace perf
