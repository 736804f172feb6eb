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

// Writes the tick log and the trace where PERF_TICKLOG and PERF_TRACE say
// (report/ticklog.cpp); registered with atexit() when the runtime starts.
void write_exit_ticks();

// Makes SIGSEGV, SIGABRT, SIGBUS and SIGFPE dump the last events of every thread
// to `ticklog_path` (%p expanded; stderr when empty) before the signal takes its
// course (crash_dump.cpp).
void install_crash_dump(const std::string& ticklog_path);

// Gives the calling thread a stack of its own for signal handlers, so that the crash
// dump runs even when the thread dies of a stack overflow; a thread that has one
// already (a sanitizer's, the program's) keeps it. Returns what to hand to
// remove_signal_stack() on the same thread before it exits, or null.
void* add_signal_stack() noexcept;
void remove_signal_stack(void* stack) noexcept;

// Prints one "perf: ..." line to stderr.
void warn(const std::string& message);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_STARTUP_HPP
