#include "file_edits.hpp"

#include "instrumentation_text.hpp"

namespace perf::tool {

std::string apply_edits(std::string_view original, std::string_view path, const file_edits& edits) {
  std::string out;
  std::size_t done = 0;
  if (edits.prefix && file_prefix_length(original) == 0) {
    done = file_prefix_offset(original);
    out.append(original.substr(0, done));
    out += file_prefix(path);
  }
  for (const auto& [offset, change] : edits.replacements) {
    out.append(original.substr(done, offset - done));
    out += change.text;
    done = offset + change.length;
  }
  out.append(original.substr(done));
  return out;
}

}  // namespace perf::tool
