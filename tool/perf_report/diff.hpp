// perf-report diff: the functions of two sets of reports compared, with a noise
// judgment per figure and the rules a CI gate checks.
#ifndef PERF_REPORT_TOOL_DIFF_HPP
#define PERF_REPORT_TOOL_DIFF_HPP

#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "metric.hpp"
#include "parsed_report.hpp"
#include "process_floor.hpp"

namespace perf::perf_report {

// A figure's value as the text and Markdown tables write it: times in the report's
// units ("12.1 ms", "-40.5 ms"), allocations per call with two decimals, shares in %.
std::string figure_text(metric m, double value);

// A figure of one report's row (not `share`, which is the samples section's): calls,
// times per call, allocations per call.
double row_figure(const function_record& f, metric m);

struct change {
  double base = 0;
  double now = 0;
  bool beyond_noise = false;
  double ratio() const { return base == 0 ? (now == 0 ? 1.0 : INFINITY) : now / base; }
};

enum class presence { both, added, removed };

struct function_diff {
  std::string name;
  std::string file;
  unsigned line = 0;
  presence where = presence::both;
  std::array<change, metric_count> changes;
  function_record base;        // the side's reports merged (empty when added)
  function_record now;         // (empty when removed)
  double impact_ns = 0;        // time the change adds (negative: saves) at the new call count
  bool too_few_calls = false;  // below --min-calls: not judged
  // Its totals (mean, p50, p99) changed but its self time did not: the change is in
  // its callees (perf-report ab judges self time; the verdict says so).
  bool through_callees = false;

  const change& operator[](metric m) const { return changes[static_cast<size_t>(m)]; }
  // A timing figure (mean, p50, p99, self) changed beyond noise.
  bool slower_or_faster() const;
  // Probe-dominated on either side: the probe costs a third or more of the function's
  // time, so its timing changes may be the probe's (its cost is measured anew each run).
  bool probe_dominated() const { return base.probe_dominated || now.probe_dominated; }
};

// `--fail-if 'p99>+10%'`: broken by a function whose figure changed beyond noise
// by more than `fraction` in that direction.
struct fail_rule {
  std::string text;
  metric figure = metric::mean;
  bool greater = true;
  double fraction = 0;
};
// Throws input_error (naming the rule) when `text` is not METRIC>+N% or METRIC<-N%.
fail_rule parse_fail_rule(const std::string& text);

struct function_diff;
// Whether `rule` is broken by `d` (judged, on both sides, its figure beyond noise and
// past the rule's limit), and the `broken:` line that says so.
bool rule_broken_by(const fail_rule& rule, const function_diff& d);
std::string broken_line(const fail_rule& rule, const function_diff& d);

// Below this many calls on a side a function is shown but not judged: the tests treat
// a run's calls as draws of its distribution, and a handful of calls (a function
// called once, at start-up, with cold caches) say little about it.
constexpr uint64_t default_min_calls = 100;

// With one report per side, a timing change is flagged only where this quantile of the
// function's calls (its fastest tenth) moved the same way: a slow moment of the machine
// slows some of the calls, a change of the code all of them (docs/perf-report.md, "The
// fastest calls must move too").
constexpr double fastest_calls_quantile = 0.10;

struct diff_options {
  double noise_floor = 0.05;  // relative changes at most this large are never "beyond noise"
  uint64_t min_calls = default_min_calls;
  // A function whose work is the same in every run (a calibration loop): each
  // report's times are scaled so that its median equals the first base report's,
  // which cancels the machine's speed from run to run. Empty: none.
  std::string normalize;
  std::vector<fail_rule> rules;
  // With one report on a side, a timing figure is flagged only past this too: the
  // tests see no between-process noise (docs/perf-report.md, "Noise").
  process_floor between_process;
};

struct diff_result {
  std::vector<function_diff> functions;  // by |impact_ns|, largest first
  size_t base_runs = 0;
  size_t new_runs = 0;
  uint64_t min_calls = 0;  // the options' (for the header line)
  // The absolute part of the noise floor (docs/perf-report.md, "Noise"): a timing
  // figure must move by more than one histogram bucket and the clocks' resolution
  // (the larger of all reports'), plus how far apart the reports' estimates of the
  // probe's inside cost lie where compensation subtracted them from every call.
  double resolution_ns = 0;
  double compensation_spread_ns = 0;
  std::vector<std::string> broken;  // one line per (rule, function) broken
  // One line: "no change beyond noise (N functions)", or what changed; with rules
  // broken, "FAIL: ..." first.
  std::string verdict;
};

// Sorts `result.functions` by impact, checks `rules` against every judged row (one
// `broken` line per rule and function) and writes the verdict; `judgment` says how the
// changes were judged, e.g. "noise floor 5%, ...", and goes into the verdict's parentheses.
void conclude(diff_result& result, const std::vector<fail_rule>& rules, const std::string& judgment);

// Throws input_error when `options.normalize` names a function some report lacks.
// Takes the reports: a side's only report gives its rows up rather than copying them.
diff_result diff_reports(std::vector<report> base, std::vector<report> now, const diff_options& options);

}  // namespace perf::perf_report

#endif  // PERF_REPORT_TOOL_DIFF_HPP
