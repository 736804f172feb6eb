// Writing a report to a file or stderr, and the report written when the program exits.
#include <unistd.h>

#include <cstdio>

#include "core/output_file.hpp"
#include "core/startup.hpp"
#include "core/warnings.hpp"
#include "exit_report/report_destination.hpp"
#include "perf/report.hpp"
#include "report_format/html_page.hpp"

namespace perf {
namespace {

// Writes `s` to `fd` as the report for `path`: JSON when it ends in ".json", the
// page that shows that JSON when it ends in ".html", else text.
bool write_snapshot(int fd, const std::string& path, const snapshot& s) {
  const std::string text = path.ends_with(".json") ? format_json(s)
                           : path.ends_with(".html")
                               ? report_format::html_page("perf-instrument report", format_json(s))
                               : format_text(s);
  return runtime::write_all(fd, text.data(), text.size());
}

// The report where PERF_REPORT says, when the program exits.
void write_exit_report() {
  const runtime::report_destination& destination = runtime::current_report_destination();
  if (destination.where == runtime::report_destination::kind::off) return;
  std::fflush(stdout);  // the program's own output first, where both share a terminal or pipe
  const snapshot s = take_snapshot();
  if (destination.where == runtime::report_destination::kind::file) {
    const std::string path = runtime::expand_path(destination.path);
    const std::string error = runtime::write_file(path, [&](int fd) { return write_snapshot(fd, path, s); });
    if (error.empty()) return;
    runtime::warn("cannot write the report to '" + path + "': " + error + "; writing it to stderr instead");
  } else if (s.threads.empty()) {
    return;  // nothing was ever measured: a program merely linked with the runtime stays quiet
  }
  const std::string text = format_text(s);
  runtime::write_all(STDERR_FILENO, text.data(), text.size());
}

PERF_RUNTIME_ON_START(register_exit_report) { runtime::add_exit_output(write_exit_report); }

}  // namespace

bool write_report(const std::string& path) {
  const snapshot s = take_snapshot();
  return runtime::write_output("report", path, [&](int fd) { return write_snapshot(fd, path, s); });
}

}  // namespace perf
