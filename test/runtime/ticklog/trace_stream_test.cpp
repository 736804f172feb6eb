// PERF_TRACE=*.pftrace streamed: every event of the run reaches the trace, however
// many more the rings could hold, through threads that come and go; a writer that
// falls behind says so. Traces of hundreds of thousands of events are read by
// perfetto_reader.hpp (protoc's text would be too slow to parse here); the protoc
// decoding of streamed traces is perfetto_trace_test.cpp's.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "probe_runner.hpp"
#include "ticklog/perfetto_reader.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using perf::testing::read_perfetto_trace;
using TraceStream = perf::testing::ProbeTest;

void run_streaming_probe(const std::string& environment, const std::string& mode) {
  const perf::testing::probe_result run = perf::testing::run_probe_program(PERF_TICK_PROBE, environment, mode);
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(run.output.find("perf: "), std::string::npos) << run.output;
}

std::map<std::string, uint64_t> timed_calls_by_name(const json& report) {
  std::map<std::string, uint64_t> calls;
  for (const json& f : report.at("functions"))
    calls[f.at("name").get<std::string>()] = f.at("timed_calls").get<uint64_t>();
  return calls;
}

// Nothing but the trace and the report in `dir`: no temporary file left behind.
void expect_only_files(const fs::path& dir, std::set<std::string> names) {
  std::set<std::string> found;
  for (const auto& entry : fs::directory_iterator(dir)) found.insert(entry.path().filename().string());
  EXPECT_EQ(found, names);
}

TEST_F(TraceStream, EveryTimedCallOfThreadsThatOutrunTheirRingsIsASlice) {
  const fs::path trace = dir / "run.pftrace", report = dir / "report.json";
  run_streaming_probe("PERF_REPORT=" + report.string() + " PERF_TRACE=" + trace.string(), "stream");
  const perf::testing::perfetto_trace read = read_perfetto_trace(trace);
  const std::map<std::string, uint64_t> timed = timed_calls_by_name(json::parse(perf::testing::read_file(report)));
  ASSERT_EQ(timed.at("outer_call"), 80000u) << "every call of a function with callees is timed";
  EXPECT_EQ(read.slices.at("outer_call"), timed.at("outer_call"));
  EXPECT_EQ(read.slices.at("inner_call"), timed.at("inner_call"));
  EXPECT_GT(timed.at("inner_call"), 0u);
  EXPECT_EQ(read.unclosed, 0u);
  EXPECT_TRUE(read.notes.empty()) << "no event lost";
  for (const char* name : {"stream-1", "stream-2", "stream-3", "stream-4"}) EXPECT_EQ(read.threads.count(name), 1u);
  expect_only_files(dir, {"run.pftrace", "report.json"});
}

// Seventy threads one after the other, their rings passed on, none kept at exit:
// each one's ticks were streamed before its ring went to the next.
TEST_F(TraceStream, ThreadsWhoseRingsPassOnKeepEveryEvent) {
  const fs::path trace = dir / "churn.pftrace";
  run_streaming_probe("PERF_REPORT=off PERF_RINGS_KEPT=0 PERF_TRACE=" + trace.string(), "churn");
  const perf::testing::perfetto_trace read = read_perfetto_trace(trace);
  EXPECT_EQ(read.ticks.at("tick"), 210u);
  EXPECT_EQ(read.tracks, 70u) << "a track per thread (main logs nothing)";
}

// A writer cannot keep up with a 16-event ring: the trace says where it lost
// events and how many, its slices still closed, and stderr says it in all.
TEST_F(TraceStream, EventsTheWriterCouldNotReadAreCountedAndMarked) {
  const fs::path trace = dir / "lossy.pftrace";
  const perf::testing::probe_result run = perf::testing::run_probe_program(
      PERF_TICK_PROBE, "PERF_REPORT=off PERF_RING_EVENTS=16 PERF_TRACE=" + trace.string(), "stream");
  ASSERT_EQ(run.status, 0) << run.output;
  const perf::testing::perfetto_trace read = read_perfetto_trace(trace);
  EXPECT_EQ(read.unclosed, 0u);
  ASSERT_FALSE(read.notes.empty());
  for (const auto& [text, count] : read.notes) {
    EXPECT_NE(text.find(" lost here: the trace's writer fell behind this thread's ring (PERF_RING_EVENTS gives "
                        "it more room)"),
              std::string::npos)
        << text;
  }
  // "perf: the streamed trace lost 160,952 events of 4 threads: ...": the notes' sum.
  const std::string said = "perf: the streamed trace lost ";
  const size_t at = run.output.find(said);
  ASSERT_NE(at, std::string::npos) << run.output;
  std::string count = run.output.substr(at + said.size(), run.output.find(' ', at + said.size()) - at - said.size());
  count.erase(std::remove(count.begin(), count.end(), ','), count.end());
  EXPECT_EQ(count, std::to_string(read.lost_in_notes));
  EXPECT_NE(run.output.find(" events of 4 threads: its writer fell behind (PERF_RING_EVENTS gives it more room)\n"),
            std::string::npos)
      << run.output;
}

}  // namespace
