// The between-process floor: how far a timing figure moves between processes of one
// program on one machine, which a diff of one report per side cannot see. perf-report ab
// measures it (--save-noise FILE: the spread of each function's figures across the
// processes of each side) and diff reads it back (--noise-from FILE); without a file,
// diff uses a documented default (docs/perf-report.md, "Noise").
#ifndef PERF_REPORT_TOOL_PROCESS_FLOOR_HPP
#define PERF_REPORT_TOOL_PROCESS_FLOOR_HPP

#include <array>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "metric.hpp"

namespace perf::perf_report {

// A relative change of a timing figure (as a fraction) below which one report per side
// is not flagged, when no file says otherwise.
constexpr double default_process_floor = 0.10;

struct process_floor {
  // Per timing figure (mean, p50, p99, self, by metric index): the largest of the
  // functions' floors; used for a function the file does not name.
  std::array<double, metric_count> figures{};
  std::map<std::string, std::array<double, metric_count>> functions;  // by function name
  std::string source = "the default";                                 // or the file it was read from

  process_floor();
  double of(const std::string& function, metric m) const;
};

// One function's values of each figure in several processes of one side.
using figure_values = std::array<std::vector<double>, metric_count>;

// Adds `function`'s spread on one side: per timing figure max/min - 1, the largest seen
// for the function and for the figure kept (a measured floor's source is "measured").
void add_spread(process_floor& floor, const std::string& function, const figure_values& values);

nlohmann::json to_json(const process_floor& floor);
// Throws input_error naming `path` and the problem when it is not such a file.
process_floor read_process_floor(const std::string& path, size_t max_bytes);

}  // namespace perf::perf_report

#endif  // PERF_REPORT_TOOL_PROCESS_FLOOR_HPP
