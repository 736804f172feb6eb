// The /metrics families that components add: each component's counts, read from
// its own fields of a snapshot of depth `counts` (core/snapshot_parts.hpp). The live
// endpoint's page (export/metrics.hpp) writes its own families first (the measured
// functions'), then these by `order`, so a component that adds a statistic adds its
// family in its own folder and edits no file of export/.
#ifndef PERF_RUNTIME_CORE_METRIC_FAMILIES_HPP
#define PERF_RUNTIME_CORE_METRIC_FAMILIES_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

#include "perf/report.hpp"

namespace perf::runtime {

struct metric_family {
  // Where the family stands on the page, lowest first: each thread's calls are 50,
  // the tick log's per-thread families 100; leave gaps for the families to come.
  int order;
  // Its samples' name: a counter's ends in _total (OpenMetrics drops that suffix from
  // the family's name, not from its samples').
  const char* name;
  const char* type;  // "counter" or "gauge"
  const char* help;
  // Whose rows the family has: one sample per row of `snapshot::threads` or of
  // `snapshot::allocations.threads` (labelled tid and thread), or a single unlabelled
  // sample for the process. The page folds exited threads into a row per name,
  // tid="exited", whose sample is the sum of their rows' `count`s: a counter stays a
  // counter that only grows, and the series stay few however many threads come and go.
  enum class rows { threads, allocation_threads, process } per;
  // Whether the page has the family at all; null: always.
  bool (*shown)(const snapshot& s);
  // The sample of `row` (0 for `process`).
  uint64_t (*count)(const snapshot& s, size_t row);
};

// Adds `family` to every /metrics page. Call it only from a PERF_RUNTIME_ON_START
// function (core/startup.hpp).
void add_metric_family(const metric_family& family);

// Every family added, by `order`.
const std::vector<metric_family>& metric_families();

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_METRIC_FAMILIES_HPP
