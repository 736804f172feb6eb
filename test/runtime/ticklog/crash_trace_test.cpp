// The flight recorder in Perfetto's format: a crash where PERF_TRACE names a Perfetto
// trace leaves one there, read back by protoc (against perfetto_subset.proto) and by
// perfetto_reader.hpp's structural checks. Drives tick_probe (see its header).
#include <gtest/gtest.h>
#include <signal.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "probe_runner.hpp"
#include "ticklog/crash_probe.hpp"
#include "ticklog/perfetto_reader.hpp"
#include "ticklog/protoc_decode.hpp"

namespace {

namespace fs = std::filesystem;
using CrashTrace = perf::testing::ProbeTest;

// Three measured threads; the third crashes inside outer { middle { crashing } } while
// the other two block inside `blocked`.
TEST_F(CrashTrace, ACrashLeavesEveryThreadsEventsAsAPerfettoTraceWithItsOpenSlicesEndedAtTheCrash) {
  const fs::path path = dir / "run.pftrace";
  const auto [result, tid, address] =
      perf::testing::run_crashing_probe("PERF_REPORT=off PERF_TRACE=" + path.string(), "segv-trace");
  ASSERT_NE(tid, 0);
  EXPECT_NE(result.output.find("perf: the crash trace is in '" + path.string() + "'\n"), std::string::npos)
      << result.output;
  // The plain dump goes where it went before (stderr without PERF_TICKLOG).
  EXPECT_NE(result.output.find("# perf-instrument tick log, pid "), std::string::npos) << result.output;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir))
    EXPECT_EQ(entry.path().string().find(".crash"), std::string::npos) << entry.path() << " left behind";

  int status = 0;
  const std::string decoded = perf::testing::protoc_decode(path, &status);
  ASSERT_EQ(status, 0) << decoded;
  EXPECT_NE(decoded.find("thread_name: \"crash-3\""), std::string::npos) << decoded;

  const perf::testing::perfetto_trace trace = perf::testing::read_perfetto_trace(path);
  for (const char* thread : {"crash-1", "crash-2", "crash-3"}) EXPECT_EQ(trace.threads.count(thread), 1u) << thread;
  EXPECT_EQ(trace.unclosed, 0u);
  EXPECT_EQ(trace.slices.at("task"), 9u);
  EXPECT_EQ(trace.ticks.at("item"), 9u);
  const std::string note = "perf: SIGSEGV on thread " + std::to_string(tid) + " (crash-3), faulting address " + address;
  ASSERT_EQ(trace.notes.count(note), 1u) << "no note " << note;
  EXPECT_EQ(trace.notes.size(), 1u);
  const uint64_t crashed = trace.note_times.at(note);

  // The crashing thread: its three open slices nest and end at the crash, marked so.
  const auto& crashing = trace.spans.at("crash-3");
  const auto [outer_begin, outer_end] = crashing.at("outer").at(0);
  const auto [middle_begin, middle_end] = crashing.at("middle").at(0);
  const auto [crash_begin, crash_end] = crashing.at("crashing").at(0);
  EXPECT_LE(outer_begin, middle_begin);
  EXPECT_LE(middle_begin, crash_begin);
  EXPECT_LE(crash_begin, crashed);
  EXPECT_EQ(outer_end, crashed);
  EXPECT_EQ(middle_end, crashed);
  EXPECT_EQ(crash_end, crashed);
  for (const auto& [begin, end] : crashing.at("task")) EXPECT_LE(end, outer_begin);
  EXPECT_EQ(trace.open_at_crash.at("crash-3"),
            (std::map<std::string, uint64_t>{{"outer", 1}, {"middle", 1}, {"crashing", 1}}));
  // The blocked threads: their tasks closed by their own exits, `blocked` at the crash.
  for (const char* thread : {"crash-1", "crash-2"}) {
    const auto& spans = trace.spans.at(thread);
    ASSERT_EQ(spans.at("task").size(), 3u) << thread;
    EXPECT_EQ(spans.at("blocked").at(0).second, crashed) << thread;
    for (const auto& [begin, end] : spans.at("task")) EXPECT_LE(end, spans.at("blocked").at(0).first) << thread;
    EXPECT_EQ(trace.open_at_crash.at(thread), (std::map<std::string, uint64_t>{{"blocked", 1}})) << thread;
    EXPECT_EQ(trace.tick_values.at(thread).at("item").size(), 3u) << thread;
  }
}

// Without a Perfetto PERF_TRACE there is no crash trace; a JSON one is not written
// from a dying process either.
TEST_F(CrashTrace, AJsonTraceGetsNoCrashTrace) {
  const fs::path path = dir / "run.json";
  const perf::testing::probe_result result =
      perf::testing::run_crashing_probe("PERF_REPORT=off PERF_TRACE=" + path.string(), "segv-trace").result;
  EXPECT_FALSE(fs::exists(path));
  EXPECT_EQ(result.output.find("crash trace"), std::string::npos) << result.output;
}

// A PERF_TRACE that is a symbolic link is written through: the link stays a link.
TEST_F(CrashTrace, ALinkIsWrittenThroughAndStaysALink) {
  const fs::path target = dir / "target.pftrace", link = dir / "run.pftrace";
  fs::create_symlink(target, link);
  perf::testing::run_crashing_probe("PERF_REPORT=off PERF_TRACE_STREAM=off PERF_TRACE=" + link.string(), "segv-trace");
  EXPECT_TRUE(fs::is_symlink(link));
  int status = 0;
  const std::string decoded = perf::testing::protoc_decode(target, &status);
  ASSERT_EQ(status, 0) << decoded;
  EXPECT_NE(decoded.find("thread_name: \"crash-3\""), std::string::npos) << decoded;
}

}  // namespace
