// perf-report ab (docs/perf-report.md, "ab"): a baseline and a candidate program run
// alternately, several processes each, and each function judged across processes:
// every process's figures are one sample, so what changes between processes (the
// neighbours' load, the CPU's frequency, where the binary landed) is in the test.
#ifndef PERF_REPORT_TOOL_AB_HPP
#define PERF_REPORT_TOOL_AB_HPP

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "diff.hpp"

namespace perf::perf_report {

enum class ab_side { base, now };
// The side of the i-th process (from 0): base, new, new, base, then again (ABBA): a
// drift of the machine's speed that is linear over four processes favours neither side.
ab_side side_of_process(size_t i);

struct ab_options {
  std::vector<std::string> base_command;  // argv of each side
  std::vector<std::string> new_command;
  size_t runs = 20;            // processes per side, at most
  size_t first_look = 8;       // processes per side before the first judgment
  double time_budget_s = 0;    // no new pair of processes once this much time is spent; 0: none
  double false_alarm = 0.05;   // the chance of flagging any unchanged figure, over all tests and looks
  diff_options diff;           // min_calls, the rules; noise_floor: changes this small are never flagged
  size_t max_input_bytes = 0;  // 0: perf-report's default
  ab_options() { diff.noise_floor = 0.01; }
  // Whether the processes are judged once each side has `per_side`: at first_look, then
  // three more times evenly up to `runs` (and at `runs`). The false-alarm rate is split
  // over the looks (Bonferroni), so stopping early is safe; few looks keep each one's share large.
  bool is_look(size_t per_side) const;
  size_t looks() const;
};

// One figure of one function, judged across processes.
struct ab_figure {
  bool judged = false;  // tested (a timing figure, or an exact one that varies between a side's processes)
  bool exact = false;   // the same in every process of each side: compared exactly
  double p = 1;         // the rank-sum test's
  double p_holm = 1;    // Holm-adjusted over every judged figure of every function
  // The ratio new/base's interval (Hodges-Lehmann, simultaneous over all tests and
  // looks); 0 and infinity when the processes are too few for that confidence.
  double low = 0;
  double high = 0;
  // The smallest relative change this interval could tell from none: half its width
  // on the log scale, as a fraction; infinity when unbounded.
  double detectable = 0;
  bool decided = false;  // more processes could not change the verdict on it
};

struct ab_function {
  std::array<ab_figure, metric_count> figures;
  const ab_figure& operator[](metric m) const { return figures[static_cast<size_t>(m)]; }
};

struct ab_result {
  // The rows as diff shows them, each figure the median of its processes' values,
  // beyond_noise from the test across processes; the rules' broken lines and the verdict.
  diff_result diff;
  std::vector<ab_function> figures;  // parallel to diff.functions
  std::vector<ab_side> order;        // the processes as they ran
  size_t tests = 0;                  // figures judged (Holm's family)
  size_t looks = 1;
  double false_alarm = 0.05;
  double interval_confidence = 0.95;  // of every ab_figure interval
  bool all_decided = false;
  std::string stopped;  // why no more processes ran
  // The spread of each judged function's timing figures between the processes of a
  // side (the larger side's): what diff --noise-from reads back (--save-noise).
  process_floor between_process;
};

// Judges the reports of `base` and `now` processes (pure: the tests feed it reports
// made by hand). `order` is recorded as given. Throws input_error as diff_reports.
ab_result judge_processes(std::vector<report> base, std::vector<report> now, const ab_options& options);

// Runs the two commands alternately (side_of_process) in a temporary directory, each
// process with its own PERF_REPORT, judging after each pair from `first_look` on,
// until every function is decided, each side has `runs` processes, or the time budget
// is spent. Throws input_error when a process fails (measured_process.hpp).
ab_result run_ab(const ab_options& options);

}  // namespace perf::perf_report

#endif  // PERF_REPORT_TOOL_AB_HPP
