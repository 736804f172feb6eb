// PERF_HEAP_PROFILE, set for the heap probe (heap_pprof_probe.cpp): the profile written at
// exit, or one line saying why not.
#include <gtest/gtest.h>

#include <filesystem>

#include "probe_runner.hpp"

namespace perf::testing {
namespace {

class HeapProfileOutput : public ProbeTest {
 protected:
  probe_result run_heap_probe(const std::string& environment) {
    return run_probe_program(PERF_HEAP_PPROF_PROBE,
                             "-u PERF_HEAP_SAMPLE -u PERF_HEAP_PROFILE PERF_REPORT=off " + environment);
  }
};

// An empty profile would read as a program that allocates nothing: none is written.
TEST_F(HeapProfileOutput, WithHeapSamplingOffNothingIsWrittenAndTheLineSaysWhy) {
  const std::string path = (dir / "heap.pb.gz").string();
  for (const std::string sampling : {"", "PERF_HEAP_SAMPLE=0 "}) {
    const probe_result run = run_heap_probe(sampling + "PERF_HEAP_PROFILE=" + path);
    EXPECT_EQ(run.status, 0) << run.output;
    EXPECT_EQ(run.output, "perf: cannot write the heap profile to '" + path +
                              "': heap sampling is off (PERF_HEAP_SAMPLE is 0 or unset)\n");
    EXPECT_FALSE(std::filesystem::exists(path));
  }
}

TEST_F(HeapProfileOutput, UnsetWritesNothingAndSaysNothing) {
  const probe_result run = run_heap_probe("");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(run.output, "");
}

}  // namespace
}  // namespace perf::testing
