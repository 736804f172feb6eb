// Repetition across processes: the program re-executes itself, and each child measures
// the comparison at the same position in its run (comparison_options::processes).
#ifndef PERF_RUNTIME_COMPARE_PROCESSES_HPP
#define PERF_RUNTIME_COMPARE_PROCESSES_HPP

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "perf/compare.hpp"

namespace perf::compare_impl {

// What a child is asked, through PERF_COMPARE_PROCESS=ORDINAL:PATH: to measure the
// run() with that ordinal and write the ratios to PATH.
struct child_task {
  std::size_t ordinal;
  std::string output;
};

// The task when this process is a child; throws std::runtime_error when the variable is
// set but malformed.
std::optional<child_task> child_task_from_environment();

// 0 for the process's first run(), then 1, ... (thread-safe).
std::size_t next_run_ordinal();

// Runs the program again, `count` times one after the other, with the same arguments
// and its output discarded, each child measuring the run() numbered `ordinal`; returns
// every child's ratios, one per row. Throws std::runtime_error when a child fails.
std::vector<std::vector<double>> ratios_from_children(std::size_t ordinal, int count);

// Writes the result's ratios to the task's file and ends the process, status 0.
[[noreturn]] void hand_to_parent(const child_task& task, const comparison_result& result);

}  // namespace perf::compare_impl

#endif  // PERF_RUNTIME_COMPARE_PROCESSES_HPP
