// The exit report's sections after the function table: the figures of one
// component each (the tick log's today; allocations per thread and the sampled
// lines later), formatted from that component's fields of perf::snapshot. Each
// section lives in a file of report/ of its own that registers it, so a new
// component adds a file here and edits none.
#ifndef PERF_RUNTIME_REPORT_SECTIONS_HPP
#define PERF_RUNTIME_REPORT_SECTIONS_HPP

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

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_REPORT_SECTIONS_HPP
