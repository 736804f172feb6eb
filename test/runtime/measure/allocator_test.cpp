// A program's replacement operator new that is measured, or that makes measured
// calls, while the runtime allocates through it: the runtime's own work records
// nothing of it instead of recursing, and holds none of its locks meanwhile.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "probe_runner.hpp"

namespace {

using json = nlohmann::json;
using AllocatorProbe = perf::testing::ProbeTest;

struct function_row {
  uint64_t calls = 0;
  uint64_t timed_calls = 0;
  uint64_t histogram = 0;  // the sum of its histogram's counts
};

// The probe's exit report, run in `mode`, by function name; fails the test unless it exited with 0.
std::map<std::string, function_row> run_allocator_probe(const std::filesystem::path& dir, const std::string& mode,
                                                        const std::string& environment = "") {
  const std::filesystem::path report = dir / "report.json";
  const perf::testing::probe_result result = perf::testing::run_probe_program(
      PERF_ALLOCATOR_PROBE, environment + " ALLOCATOR_PROBE_MODE=" + mode + " PERF_REPORT=" + report.string());
  EXPECT_TRUE(WIFEXITED(result.status) && WEXITSTATUS(result.status) == 0) << "status " << result.status << "\n"
                                                                           << result.output;
  std::map<std::string, function_row> rows;
  if (!std::filesystem::exists(report)) return rows;
  const json parsed = json::parse(perf::testing::read_file(report));
  for (const json& f : parsed.at("functions")) {
    function_row& row = rows[f.at("name").get<std::string>()];
    row.calls = f.at("calls").get<uint64_t>();
    row.timed_calls = f.at("timed_calls").get<uint64_t>();
    for (const json& bucket : f.at("histogram")) row.histogram += bucket.at(1).get<uint64_t>();
  }
  return rows;
}

TEST_F(AllocatorProbe, AMeasuredReplacementOperatorNewRunsAndTheOtherFunctionsAreReported) {
  std::map<std::string, function_row> rows = run_allocator_probe(dir, "measured");
  EXPECT_EQ(rows["allocator_probe.work"].calls, 7u);
  EXPECT_EQ(rows["allocator_probe.operator_new"].timed_calls, rows["allocator_probe.operator_new"].histogram);
}

TEST_F(AllocatorProbe, AnAllocationHookMakingMeasuredCallsWhileThreadsRegisterSitesNeitherDeadlocksNorRecurses) {
  std::map<std::string, function_row> rows = run_allocator_probe(dir, "hooked");
  EXPECT_EQ(rows["allocator_probe.first_call"].calls, 8u * 64u);
  EXPECT_EQ(rows["allocator_probe.allocation_hook"].timed_calls, rows["allocator_probe.allocation_hook"].histogram);
}

// The hook on throughout: threads attach inside it (its lock held), register sites,
// and exit, while another thread takes snapshots. A runtime lock held across the
// program's operator new deadlocks here (the probe's alarm ends it with SIGALRM).
TEST_F(AllocatorProbe,
       AnAllocationHookMakingMeasuredCallsWhileThreadsAttachRegisterSitesAndExitNeitherDeadlocksNorRecurses) {
  const std::filesystem::path during = dir / "during.json";
  std::map<std::string, function_row> rows =
      run_allocator_probe(dir, "churning", "ALLOCATOR_PROBE_REPORT=" + during.string());
  EXPECT_EQ(rows["allocator_probe.first_call"].calls, 4u * 8u * 64u);
  EXPECT_EQ(rows["allocator_probe.first_call"].histogram, 4u * 8u * 64u);
  EXPECT_NE(rows["allocator_probe.allocation_hook"].calls, 0u);
  EXPECT_EQ(rows["allocator_probe.allocation_hook"].timed_calls, rows["allocator_probe.allocation_hook"].histogram);
  // The report written while threads came and went is a whole one.
  EXPECT_EQ(json::parse(perf::testing::read_file(during)).at("schema_version"),
            json::parse(perf::testing::read_file(dir / "report.json")).at("schema_version"));
}

}  // namespace
