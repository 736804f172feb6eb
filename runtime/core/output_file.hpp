// Writing the runtime's output files (reports, tick logs, traces, profiles): a
// regular file whole or not at all; a device, FIFO or socket as a stream; never
// replacing anything but a regular file.
#ifndef PERF_RUNTIME_CORE_OUTPUT_FILE_HPP
#define PERF_RUNTIME_CORE_OUTPUT_FILE_HPP

#include <cstddef>
#include <functional>
#include <string>

namespace perf::runtime {

// Writes all `size` bytes to `fd`, retrying after signals. Async-signal-safe.
bool write_all(int fd, const char* data, size_t size) noexcept;

// The descriptor `path` names when it names one this process has open: /dev/stdin,
// /dev/stdout, /dev/stderr (0, 1, 2), /dev/fd/N, /proc/self/fd/N and
// /proc/<this process's id>/fd/N; -1 for any other path. Opening such a path would
// start a second file description at offset 0 (overwriting a redirected stdout from
// its start) or fail (a socket): output for it goes to the descriptor itself.
// Async-signal-safe.
int named_descriptor(const char* path) noexcept;

// Has `write` fill the file at `path` and returns an error description, empty on
// success. `write` returns false when a write failed (errno telling why). By what
// `path` is, once symbolic links are followed (up to 40; a link stays a link):
// - a regular file, or nothing yet: `write` fills a new file in the same directory,
//   under a name unique to the call (two threads may write one path at once), and it
//   is renamed over `path`: a reader never sees half a file. A file this process may
//   not write (read-only to its user, immutable, on a read-only file system) is
//   refused as it would be by open(), though the directory would allow the rename;
// - a character device, FIFO or Unix socket: written in place as `write` goes (a
//   FIFO's open waits for its reader, as a shell's redirection does);
// - a named_descriptor(): written to that descriptor at its offset, left open;
// - anything else (a directory, a block device): refused, nothing is written.
[[nodiscard]] std::string write_file(const std::string& path, const std::function<bool(int fd)>& write);

// `path` with "%p" replaced by this process's id (the child's after fork).
std::string expand_path(const std::string& path);

// write_file() to `path` after %p expansion. On failure, warns "cannot write the
// <what> to '<path>': <error>" and returns false.
bool write_output(const char* what, const std::string& path, const std::function<bool(int fd)>& write);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_OUTPUT_FILE_HPP
