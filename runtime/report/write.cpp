// Writing a report to a file or stderr, and the report written when the program exits.
#include <unistd.h>

#include <cstdio>
#include <string_view>

#include "../startup.hpp"
#include "file_output.hpp"
#include "perf/report.hpp"

namespace perf {
namespace {

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// Writes `s` to `path`, JSON when it ends in ".json". Returns an error description, empty on success.
std::string write_snapshot(const std::string& path, const snapshot& s) {
  const std::string text = ends_with(path, ".json") ? format_json(s) : format_text(s);
  return runtime::replace_file(path, [&](int fd) { return runtime::write_all(fd, text.data(), text.size()); });
}

using runtime::expand_path;

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
  const std::string text = format_text(s);
  runtime::write_all(STDERR_FILENO, text.data(), text.size());
}

bool write_report(const std::string& path) {
  const std::string expanded = expand_path(path);
  const std::string error = write_snapshot(expanded, take_snapshot());
  if (error.empty()) return true;
  runtime::warn("cannot write the report to '" + expanded + "': " + error);
  return false;
}

}  // namespace perf
