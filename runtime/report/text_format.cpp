#include "report/text_format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace perf::runtime {

std::string format_duration(double ns, double resolution_ns) {
  if (ns < resolution_ns) return "< " + format_duration(resolution_ns);
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

std::string format_per_call(double n) {
  const double whole = std::round(n);
  if (whole == n || n >= 100) return format_count(static_cast<uint64_t>(whole));
  return fmt::format("{:.1f}", n);
}

// `text` on one line: control characters written as C escapes.
std::string thread_title(long tid, const std::string& name, uint64_t threads, bool exited) {
  if (tid == 0 && exited)
    return fmt::format("{} exited thread{} ({})", format_count(threads), threads == 1 ? "" : "s", printable(name));
  return fmt::format("thread {} ({}{})", tid, printable(name), exited ? ", exited" : "");
}

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

}  // namespace perf::runtime
