// A JSON report of the runtime (docs/report-format.md) as perf-report reads it:
// the functions typed, every other section kept as JSON.
#ifndef PERF_REPORT_TOOL_PARSED_REPORT_HPP
#define PERF_REPORT_TOOL_PARSED_REPORT_HPP

#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "histogram.hpp"

namespace perf::perf_report {

// What a report may hold (docs/perf-report.md, "Untrusted input"): beyond these it is
// refused, so that nothing perf-report computes from it overflows or recurses without bound.
constexpr unsigned max_nesting_depth = 64;               // JSON levels (a runtime's report has 5)
constexpr uint64_t max_count = uint64_t{1} << 53;        // calls, samples...: exact as doubles
constexpr double max_duration_ns = 0x1p64;               // times: 584 years, more than a 64-bit clock counts
constexpr double min_ghz = 1e-3, max_ghz = 1e3;          // clock.ghz
constexpr size_t default_max_input_bytes = 256'000'000;  // a file's size (--max-input-mb)

// Bad input: `what()` names the file and the problem, ready to print.
class input_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One row of `functions[]`. Durations in nanoseconds; `durations` is in clock ticks
// at `durations.ghz`.
struct function_record {
  std::string name;
  std::string file;
  unsigned line = 0;
  uint64_t calls = 0;        // every call
  uint64_t timed_calls = 0;  // the calls timed: the moments' and the histogram's count (`calls` where absent)
  double total_ns = 0;       // estimated where timed_calls < calls (adaptive timing), as self_ns
  double self_ns = 0;
  double mean_ns = 0;  // of the timed calls (the moments)
  double m2_ns2 = 0;   // sum of squared deviations from the mean
  // The mean of every call with its 95% interval: the report's mean_ns, mean_ns_low and
  // mean_ns_high where estimated (timed_calls < calls), else mean_ns with no width.
  double call_mean_ns = 0;
  double call_mean_low_ns = 0;
  double call_mean_high_ns = 0;
  double min_ns = 0;
  double max_ns = 0;
  uint64_t alloc_total_count = 0;
  uint64_t alloc_total_bytes = 0;
  histogram durations;
  // The report's clock.probe_ns, and the part of it the durations still hold
  // (clock.probe_inside_ns when not compensated, else 0); merged: weighted by calls.
  double probe_ns = 0;
  double probe_inside_ns = 0;
  // The runtime's verdict (docs/report-format.md); merged: probe_dominates().
  bool probe_dominated = false;

  double stddev_ns() const;
  // Whether total, self and the mean of every call are estimated from a sample of the
  // calls (PERF_TIMING=adaptive), and the standard error of that mean (0 when not).
  bool estimated() const { return timed_calls < calls; }
  double call_mean_standard_error_ns() const;
  // report_format::probe_dominated of this row's median and probe figures: the rule the
  // runtime applies (false without a probe cost).
  bool probe_dominates() const;
  // The value at quantile q, as the runtime reports it: the histogram's bucket
  // midpoint, kept within [min_ns, max_ns].
  double quantile_ns(double q) const;
};

struct report {
  std::string path;         // where it was read from, for messages
  nlohmann::json document;  // everything but "functions", as read
  std::vector<function_record> functions;
  // From the clock: the smallest step it takes (clock.resolution_ns, absent: 0), and
  // the probe's inside cost that compensation subtracted from every call
  // (clock.probe_inside_ns when clock.compensated, else 0).
  double resolution_ns = 0;
  double compensated_ns = 0;

  double ghz() const;
  // samples.measured[]: each measured function's share of all samples (absent: 0).
  std::unordered_map<std::string, double> sample_shares() const;
};

// Reads and checks `path`. Throws input_error naming the file when it is missing,
// larger than `max_bytes`, not JSON, of another schema version, or not shaped like a
// report (docs/perf-report.md).
report read_report(const std::string& path, size_t max_bytes = default_max_input_bytes);
// The same for text already read.
report parse_report(const std::string& text, const std::string& path);

// The report as the runtime writes it (functions with the derived fields).
nlohmann::json to_json(const report& r);

// The whole of `path` (a file, or a pipe); throws input_error naming the path when it
// cannot be read or holds more than `max_bytes`.
std::string read_whole_file(const std::string& path, size_t max_bytes = default_max_input_bytes);

// Writes `text` to `path` whole or not at all (temporary file and rename);
// throws input_error naming the path on failure.
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace perf::perf_report

#endif  // PERF_REPORT_TOOL_PARSED_REPORT_HPP
