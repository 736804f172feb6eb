// The edits the rewriter makes to one file, and the file's text with them.
#ifndef PERF_TOOL_FILE_EDITS_HPP
#define PERF_TOOL_FILE_EDITS_HPP

#include <map>
#include <string>
#include <string_view>

namespace perf::tool {

// `length` bytes at some offset of a file replaced by `text` (length 0: an insertion).
struct replacement {
  unsigned length = 0;
  std::string text;
  bool operator==(const replacement& other) const { return length == other.length && text == other.text; }
};

struct file_edits {
  bool prefix = false;                           // the file needs file_prefix(), unless it has it
  std::map<unsigned, replacement> replacements;  // by offset in the file as it is
};

// Where a file's text goes: back to its own path (in-place edits), where the runtime
// header takes an empty line when it can (see empty_line_for_header), or to a copy
// under another name, whose file_prefix() names the original.
enum class destination { same_file, renamed_copy };

// `original` (the file at `path`) with `edits` applied, for `where`.
std::string apply_edits(std::string_view original, std::string_view path, const file_edits& edits, destination where);

}  // namespace perf::tool

#endif  // PERF_TOOL_FILE_EDITS_HPP
