// Writing a report to a file or stderr, and the report written when the program exits.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "../startup.hpp"
#include "perf/report.hpp"

namespace perf {
namespace {

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool write_all(int fd, const std::string& text) {
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// Writes `text` beside `path` and renames it over `path`, so a reader never sees
// half a report. Returns an error description, empty on success.
std::string replace_file(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".tmp." + std::to_string(getpid());
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return std::strerror(errno);
  const bool written = write_all(fd, text);
  const int saved_errno = errno;
  if (::close(fd) != 0 || !written) {
    ::unlink(temporary.c_str());
    return std::strerror(written ? errno : saved_errno);
  }
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    const int rename_errno = errno;
    ::unlink(temporary.c_str());
    return std::strerror(rename_errno);
  }
  return {};
}

// Writes `s` to `path`, JSON when it ends in ".json". Returns an error description, empty on success.
std::string write_snapshot(const std::string& path, const snapshot& s) {
  return replace_file(path, ends_with(path, ".json") ? format_json(s) : format_text(s));
}

std::string expand_path(const std::string& path) { return runtime::expand_pid(path, static_cast<long>(getpid())); }

}  // namespace

void runtime::write_exit_report() {
  const runtime::report_destination& destination = runtime::current_settings().environment.report;
  if (destination.where == runtime::report_destination::kind::off) return;
  std::fflush(stdout);  // the program's own output first, where both share a terminal or pipe
  const snapshot s = take_snapshot();
  if (destination.where == runtime::report_destination::kind::file) {
    const std::string path = expand_path(destination.path);
    const std::string error = write_snapshot(path, s);
    if (error.empty()) return;
    runtime::warn("cannot write the report to '" + path + "': " + error + "; writing it to stderr instead");
  } else if (s.threads.empty()) {
    return;  // nothing was ever measured: a program merely linked with the runtime stays quiet
  }
  write_all(STDERR_FILENO, format_text(s));
}

bool write_report(const std::string& path) {
  const std::string expanded = expand_path(path);
  const std::string error = write_snapshot(expanded, take_snapshot());
  if (error.empty()) return true;
  runtime::warn("cannot write the report to '" + expanded + "': " + error);
  return false;
}

}  // namespace perf
