// tick_probe run in a mode that crashes (see its header), for the tests of the crash
// records: the plain dump (tick_output_test.cpp) and the crash trace
// (crash_trace_test.cpp).
#ifndef PERF_TEST_RUNTIME_TICKLOG_CRASH_PROBE_HPP
#define PERF_TEST_RUNTIME_TICKLOG_CRASH_PROBE_HPP

#include <gtest/gtest.h>
#include <signal.h>

#include <cstdio>
#include <string>

#include "probe_runner.hpp"

namespace perf::testing {

// What a crashing probe run gave: its status and stderr, and the thread that faulted
// and the address it wrote to, as its line "tick_probe: thread 4242 writes to 0x7f..."
// says them (tid 0 where it said none).
struct crash_run {
  probe_result result;
  long tid = 0;
  std::string address;
};

// Runs tick_probe `mode` with `environment`, expecting it to die of SIGSEGV after
// saying where it writes.
inline crash_run run_crashing_probe(const std::string& environment, const std::string& mode) {
  crash_run run;
  run.result = run_probe_program(PERF_TICK_PROBE, environment, mode);
  expect_killed_by(run.result.status, SIGSEGV);
  char address[32] = {};
  EXPECT_EQ(std::sscanf(run.result.output.c_str(), "tick_probe: thread %ld writes to %31s", &run.tid, address), 2)
      << run.result.output;
  run.address = address;
  return run;
}

}  // namespace perf::testing

#endif  // PERF_TEST_RUNTIME_TICKLOG_CRASH_PROBE_HPP
