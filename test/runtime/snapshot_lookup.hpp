// Finding one function's row in a snapshot, for tests.
#ifndef PERF_TEST_SNAPSHOT_LOOKUP_HPP
#define PERF_TEST_SNAPSHOT_LOOKUP_HPP

#include <cstdint>
#include <string_view>

#include "perf/report.hpp"

namespace perf::testing {

// The row named `name` in a fresh snapshot; a row with zero calls if there is none.
inline function_stats stats_of(std::string_view name) {
  for (const function_stats& f : take_snapshot().functions)
    if (f.name == name) return f;
  return {};
}

// The switched calls (perf::switched_calls) of the function named `name` in a fresh
// snapshot; 0 if it has none.
inline uint64_t switched_calls_of(std::string_view name) {
  for (const switched_calls& f : take_snapshot().switched)
    if (f.name == name) return f.calls;
  return 0;
}

}  // namespace perf::testing

#endif  // PERF_TEST_SNAPSHOT_LOOKUP_HPP
