// Writing the runtime's output files: whole or not at all.
#ifndef PERF_RUNTIME_REPORT_FILE_OUTPUT_HPP
#define PERF_RUNTIME_REPORT_FILE_OUTPUT_HPP

#include <cstddef>
#include <functional>
#include <string>

namespace perf::runtime {

// Writes all `size` bytes to `fd`, retrying after signals. Async-signal-safe.
bool write_all(int fd, const char* data, size_t size) noexcept;

// Has `write` fill a file beside `path`, then renames it over `path`, so a reader
// never sees half a file. `write` returns false when a write failed. Returns an
// error description, empty on success.
std::string replace_file(const std::string& path, const std::function<bool(int fd)>& write);

// `path` with "%p" replaced by this process's id.
std::string expand_path(const std::string& path);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_REPORT_FILE_OUTPUT_HPP
