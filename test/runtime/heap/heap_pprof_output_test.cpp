// PERF_HEAP_PROFILE, set for the heap probe (heap_pprof_probe.cpp): the profile written at
// exit, or one line saying why not.
#include <gtest/gtest.h>

#include <filesystem>
#include <vector>

#include "go_pprof.hpp"

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

// Sampling every 64 KiB on average, the probe's 40 MiB site is sampled about 640
// times, its 4 MiB one 64 times, its 1 MiB of malloc 16 times: the order of the first
// two cannot come out otherwise, nor the third be missing.
TEST_F(HeapProfileOutput, TheProfileAtExitListsTheHeaviestSiteFirstAndTheLeakFirstByLiveBytes) {
  const probe_result run =
      run_heap_probe("PERF_HEAP_SAMPLE=65536 PERF_HEAP_PROFILE=" + (dir / "heap-%p.pb.gz").string());
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(run.output, "");
  std::vector<std::filesystem::path> written;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) written.push_back(entry.path());
  ASSERT_EQ(written.size(), 1u);
  const std::string name = written[0].filename().string();
  EXPECT_EQ(name.substr(0, 5), "heap-") << name;
  EXPECT_EQ(name.find_first_not_of("0123456789", 5), name.size() - 6) << name << ": %p is the pid";
  EXPECT_GT(name.size(), std::string("heap-.pb.gz").size()) << name;
  EXPECT_EQ(name.substr(name.size() - 6), ".pb.gz") << name;

  const probe_result allocated = go_tool_pprof("-top -alloc_space " + written[0].string(), dir);
  ASSERT_EQ(allocated.status, 0) << allocated.output;
  EXPECT_NE(allocated.output.find("Type: alloc_space\n"), std::string::npos) << allocated.output;
  const std::vector<pprof_top_row> by_bytes = pprof_top_rows(allocated.output);
  ASSERT_GE(by_bytes.size(), 2u) << allocated.output;
  EXPECT_EQ(by_bytes[0].name, "sites::heavy") << allocated.output;
  EXPECT_EQ(by_bytes[1].name, "sites::light") << allocated.output;
  // A stack starts at the allocation function's caller, malloc's as operator new's.
  EXPECT_NE(allocated.output.find(" sites::from_malloc\n"), std::string::npos) << allocated.output;
  EXPECT_EQ(allocated.output.find("perf::"), std::string::npos) << allocated.output;

  const probe_result live = go_tool_pprof("-top " + written[0].string(), dir);
  ASSERT_EQ(live.status, 0) << live.output;
  EXPECT_NE(live.output.find("Type: inuse_space\n"), std::string::npos) << live.output;
  const std::vector<pprof_top_row> by_live_bytes = pprof_top_rows(live.output);
  ASSERT_GE(by_live_bytes.size(), 1u) << live.output;
  EXPECT_EQ(by_live_bytes[0].name, "sites::leak") << live.output;
}

TEST_F(HeapProfileOutput, APathThatCannotBeWrittenIsNamedWithTheReason) {
  const std::string path = (dir / "missing" / "heap.pb.gz").string();
  const probe_result run = run_heap_probe("PERF_HEAP_SAMPLE=65536 PERF_HEAP_PROFILE=" + path);
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(run.output, "perf: cannot write the heap profile to '" + path + "': No such file or directory\n");
}

}  // namespace
}  // namespace perf::testing
