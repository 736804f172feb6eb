// The exit report's sections after the function table: the figures of one
// component each (the probe's cost, the tick log, allocations per thread, the
// samples), formatted from that component's fields of perf::snapshot. Each section
// lives in its component's folder (<component>/<name>_section.cpp) and registers
// itself, so a component that adds a statistic edits no file of exit_report/, which
// keeps only the frame: the header, the function and thread tables, the writing.
#ifndef PERF_RUNTIME_CORE_REPORT_SECTIONS_HPP
#define PERF_RUNTIME_CORE_REPORT_SECTIONS_HPP

#include <string>
#include <vector>

#include "perf/report.hpp"

namespace perf::runtime {

struct report_section {
  // Where the section stands in both formats, lowest first: the tick log is 100;
  // leave gaps for the sections to come.
  int order;
  // In the JSON report, the member `"<json_key>": <json(s)>` after "threads".
  const char* json_key;
  std::string (*json)(const snapshot& s);
  // In the text report, lines under the function table, each ending in '\n'
  // (none at all is fine).
  std::string (*text)(const snapshot& s);
};

// Adds `section` to every report. Call it only from a PERF_RUNTIME_ON_START
// function (core/startup.hpp).
void add_report_section(const report_section& section);

// Every section added, by `order`.
const std::vector<report_section>& report_sections();

// The directory, ending in '/', that the measured functions' files lie in ("" if none):
// the text report names it once ("sources under DIR/", over the function table), and
// every section shows the program's paths below it.
std::string sources_directory(const snapshot& s);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_REPORT_SECTIONS_HPP
