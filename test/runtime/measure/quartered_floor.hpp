// A floor far below what this build's probe costs, for tests of what a process does
// with such a floor in its file (probe_floor.hpp).
#ifndef PERF_TEST_RUNTIME_MEASURE_QUARTERED_FLOOR_HPP
#define PERF_TEST_RUNTIME_MEASURE_QUARTERED_FLOOR_HPP

#include "measure/probe_floor.hpp"

namespace perf::runtime {

// `kept`'s floor with the probe's parts a quarter as dear, no process counted above it.
inline kept_floor quartered(const kept_floor& kept) {
  const probe_cost& c = kept.floor;
  return kept_floor{{c.outside / 4, c.inside / 4, c.empty_call, c.untimed, c.inside_sampled / 4}};
}

}  // namespace perf::runtime

#endif  // PERF_TEST_RUNTIME_MEASURE_QUARTERED_FLOOR_HPP
