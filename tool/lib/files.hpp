// Reading and writing source files without ever leaving one half-written.
#ifndef PERF_TOOL_FILES_HPP
#define PERF_TOOL_FILES_HPP

#include <optional>
#include <string>

namespace perf::tool {

// The file's contents, or its first `limit` bytes; nullopt if it cannot be read.
std::optional<std::string> read_file(const std::string& path, size_t limit = std::string::npos);

// Replaces `path` with `text` through a temporary file in the same directory and a
// rename, keeping the file's permissions. Returns an error message, empty on success.
std::string write_file_atomically(const std::string& path, const std::string& text);

}  // namespace perf::tool

#endif  // PERF_TOOL_FILES_HPP
