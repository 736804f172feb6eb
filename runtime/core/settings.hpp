// What the runtime decides once per process: the configuration and the clock.
#ifndef PERF_RUNTIME_CORE_SETTINGS_HPP
#define PERF_RUNTIME_CORE_SETTINGS_HPP

#include "core/clock.hpp"
#include "core/config.hpp"

namespace perf::runtime {

struct settings {
  config environment;
  detail::clock_source clock;
  uint64_t clock_resolution;  // in ticks of `clock` (measure_resolution); 0 if unknown
};

// Parsed and chosen on first use (the runtime's start-up constructor makes that
// first use early); warnings go to stderr once, one line each. Thread-safe.
const settings& current_settings();

// The rate of the chosen clock, measured on first use (see measure_rate). Thread-safe.
const clock_rate& current_clock_rate();

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_SETTINGS_HPP
