#include "report_format/text_format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

namespace perf::report_format {

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

std::string format_count_of(uint64_t n, const std::string& noun) {
  return format_count(n) + " " + noun + (n == 1 ? "" : "s");
}

std::string format_per_call(double n) {
  const double whole = std::round(n);
  if (whole == n || n >= 100) return format_count(static_cast<uint64_t>(whole));
  return fmt::format("{:.1f}", n);
}

std::string thread_title(long tid, const std::string& name, uint64_t threads, bool exited) {
  if (tid == 0 && exited) return fmt::format("{} ({})", format_count_of(threads, "exited thread"), printable(name));
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
std::string common_directory(const std::vector<std::string>& files) {
  std::optional<std::string> common;
  for (const std::string& file : files) {
    if (file.empty()) continue;
    const std::string directory = file.substr(0, file.rfind('/') + 1);  // "" without a '/'
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

std::string below(const std::string& path, const std::string& directory) {
  return path.compare(0, directory.size(), directory) == 0 ? path.substr(directory.size()) : path;
}

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

std::string elided_signature(const std::string& signature) {
  // The parameter list: the parentheses that close at the end, qualifiers after them
  // (" const", " &") left out. One preceded by a space ("f (PLT)") is not one.
  const size_t close = signature.rfind(')');
  if (close == std::string::npos || signature.find("operator") != std::string::npos ||
      signature.find_first_of(":}", close) != std::string::npos)  // "f()::{lambda()#1}::_FUN": not a signature's end
    return signature;
  size_t open = close;
  for (int depth = 0; open-- > 0;) {
    if (signature[open] == ')') ++depth;
    else if (signature[open] == '(' && depth-- == 0) break;
  }
  if (open == std::string::npos || open == 0 || signature[open - 1] == ' ') return signature;
  // The name: what follows the return type's last space outside brackets, each
  // template argument list outside brackets elided ("(anonymous namespace)" and a
  // lambda's "{lambda(int)#1}" stay whole).
  std::string name;
  int angles = 0, brackets = 0;
  for (size_t i = 0; i < open; ++i) {
    const char c = signature[i];
    if (angles > 0) {
      angles += c == '<' ? 1 : c == '>' ? -1 : 0;
    } else if (c == '<' && brackets == 0) {
      angles = 1;
      name += "<...>";
    } else if (c == ' ' && brackets == 0) {
      name.clear();
    } else {
      brackets += c == '(' || c == '{' || c == '[' ? 1 : c == ')' || c == '}' || c == ']' ? -1 : 0;
      name += c;
    }
  }
  if (angles != 0 || name.empty()) return signature;
  return name + (close == open + 1 ? "()" : "(...)");
}

// `text` padded with spaces to `width` display columns, on the left or the right.
std::string pad(const std::string& text, size_t width, bool right_align) {
  const size_t shown = display_width(text);
  const std::string fill(width > shown ? width - shown : 0, ' ');
  return right_align ? fill + text : text + fill;
}

}  // namespace perf::report_format
