// Writing the runtime's output files (reports, tick logs, traces): whole or not at all.
#ifndef PERF_RUNTIME_CORE_OUTPUT_FILE_HPP
#define PERF_RUNTIME_CORE_OUTPUT_FILE_HPP

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

// replace_file() on `path` after %p expansion. On failure, warns "cannot write the
// <what> to '<path>': <error>" and returns false.
bool write_output(const char* what, const std::string& path, const std::function<bool(int fd)>& write);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_OUTPUT_FILE_HPP
