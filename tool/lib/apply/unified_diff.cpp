#include "lib/apply/unified_diff.hpp"

#include <algorithm>
#include <vector>

namespace perf::tool {
namespace {

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    const size_t length = end == std::string_view::npos ? text.size() : end + 1;
    lines.push_back(text.substr(0, length));
    text.remove_prefix(length);
  }
  return lines;
}

void append_line(std::string& out, char mark, std::string_view line) {
  out += mark;
  out += line;
  if (line.empty() || line.back() != '\n') out += "\n\\ No newline at end of file\n";
}

}  // namespace

std::string unified_diff(const std::string& path, std::string_view before, std::string_view after) {
  const std::vector<std::string_view> old_lines = lines_of(before), new_lines = lines_of(after);
  const size_t added = new_lines.size() - old_lines.size();  // lines put at the top
  constexpr long context = 3;

  // Ranges of old lines to show: each change with its context, merged where they
  // touch. Lines added at the top count as a change just before line 0.
  std::vector<std::pair<long, long>> hunks;
  auto show = [&](long first, long last) {
    first = std::max(0L, first);
    last = std::min(static_cast<long>(old_lines.size()), last);
    if (!hunks.empty() && first <= hunks.back().second) hunks.back().second = std::max(hunks.back().second, last);
    else hunks.emplace_back(first, last);
  };
  if (added > 0) show(0, context);
  for (size_t i = 0; i < old_lines.size(); ++i)
    if (old_lines[i] != new_lines[i + added]) show(static_cast<long>(i) - context, static_cast<long>(i) + 1 + context);
  if (hunks.empty()) return {};

  std::string out = "--- " + path + "\n+++ " + path + "\n";
  for (const auto& [first, last] : hunks) {
    const bool top = first == 0 && added > 0;
    const long count = last - first;
    out += "@@ -" + std::to_string(count == 0 ? 0 : first + 1) + "," + std::to_string(count) + " +" +
           std::to_string(top ? 1 : first + 1 + static_cast<long>(added)) + "," +
           std::to_string(count + (top ? static_cast<long>(added) : 0)) + " @@\n";
    if (top)
      for (size_t i = 0; i < added; ++i) append_line(out, '+', new_lines[i]);
    for (long i = first; i < last; ++i) {
      const std::string_view old_line = old_lines[static_cast<size_t>(i)];
      const std::string_view new_line = new_lines[static_cast<size_t>(i) + added];
      if (old_line == new_line) {
        append_line(out, ' ', old_line);
      } else {
        append_line(out, '-', old_line);
        append_line(out, '+', new_line);
      }
    }
  }
  return out;
}

}  // namespace perf::tool
