#include "lib/plan/file_edits.hpp"

#include "lib/plan/instrumentation_text.hpp"

namespace perf::tool {

std::string apply_edits(std::string_view original, std::string_view path, const file_edits& edits, destination where) {
  std::string out;
  std::size_t done = 0;
  std::map<unsigned, replacement> replacements = edits.replacements;
  if (edits.prefix && !has_runtime_header(original)) {
    const std::optional<std::size_t> empty_line =
        where == destination::same_file ? empty_line_for_header(original) : std::nullopt;
    if (empty_line) {  // among the file's leading lines: before every body's brace
      replacements.emplace(static_cast<unsigned>(*empty_line), replacement{0, std::string(header_include_line())});
    } else {
      done = file_prefix_offset(original);
      out.append(original.substr(0, done));
      out += file_prefix(path);
    }
  }
  for (const auto& [offset, change] : replacements) {
    out.append(original.substr(done, offset - done));
    out += change.text;
    done = offset + change.length;
  }
  out.append(original.substr(done));
  return out;
}

}  // namespace perf::tool
