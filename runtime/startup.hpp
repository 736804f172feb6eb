// What the runtime decides once per process: configuration and clock.
#ifndef PERF_RUNTIME_STARTUP_HPP
#define PERF_RUNTIME_STARTUP_HPP

#include "clock.hpp"
#include "config.hpp"

namespace perf::runtime {

struct settings {
  config environment;
  detail::clock_source clock;
};

// Parsed and chosen on first use (the runtime's start-up constructor makes that
// first use early); warnings go to stderr once, one line each.
const settings& current_settings();

// The rate of the chosen clock, measured on first use (see measure_rate).
const clock_rate& current_clock_rate();

// Writes the report where PERF_REPORT says (report/write.cpp); registered with
// atexit() when the runtime starts.
void write_exit_report();

// Prints one "perf: ..." line to stderr.
void warn(const std::string& message);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_STARTUP_HPP
