// What a program's tick log becomes: the plain dump, the Chrome trace, the
// report's counts, and the dump a crash leaves behind. Drives tick_probe.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "probe_runner.hpp"
#include "ticklog/crash_probe.hpp"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using perf::testing::read_file;
using TickOutput = perf::testing::ProbeTest;

std::string run_tick_probe(const std::string& environment, const std::string& mode = "") {
  const perf::testing::probe_result result = perf::testing::run_probe_program(PERF_TICK_PROBE, environment, mode);
  EXPECT_EQ(result.status, 0) << environment << " " << mode << "\n" << result.output;
  return result.output;
}

// One line of the plain format.
struct dump_line {
  uint64_t time_ns;
  uint64_t delta_ns;
  long tid;
  std::string n;
  std::string event;
};

// The header lines (starting with '#') and the event lines of a plain dump.
std::vector<dump_line> parse_dump(const std::string& text, std::vector<std::string>* header = nullptr) {
  std::vector<dump_line> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind('#', 0) == 0) {
      if (header != nullptr) header->push_back(line);
      continue;
    }
    std::istringstream fields(line);
    dump_line parsed;
    fields >> parsed.time_ns >> parsed.delta_ns >> parsed.tid >> parsed.n;
    fields.ignore(2);
    std::getline(fields, parsed.event);
    lines.push_back(parsed);
  }
  return lines;
}

const std::string cut_label = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ<";

TEST_F(TickOutput, ThePlainDumpMergesEveryThreadInTimeOrder) {
  const fs::path path = dir / "ticks.txt";
  EXPECT_EQ(run_tick_probe("PERF_REPORT=off PERF_TICKLOG=" + path.string()), "");
  std::vector<std::string> header;
  const std::vector<dump_line> lines = parse_dump(read_file(path), &header);
  ASSERT_EQ(header.size(), 2u);
  EXPECT_NE(header[0].find(": 48 events of 4 threads, 0 older ones dropped"), std::string::npos) << header[0];
  EXPECT_EQ(header[1], "#       time_ns     delta_ns   thread                    n  event");
  // main: outer, 3 x step with a tick, the long tick = 12; workers: 3 x 4 x (task + tick) = 36.
  ASSERT_EQ(lines.size(), 48u);
  std::map<std::string, int> events;
  std::map<long, uint64_t> last_time;
  for (size_t i = 0; i < lines.size(); ++i) {
    ++events[lines[i].event];
    if (i != 0) { EXPECT_GE(lines[i].time_ns, lines[i - 1].time_ns); }
    if (last_time.count(lines[i].tid) != 0) {
      EXPECT_NEAR(lines[i].delta_ns, lines[i].time_ns - last_time[lines[i].tid], 1);
    }
    last_time[lines[i].tid] = lines[i].time_ns;
  }
  const std::map<std::string, int> expected = {{"> outer", 1}, {"< outer", 1}, {"> step", 3},
                                               {"< step", 3},  {"step", 3},    {"> task", 12},
                                               {"< task", 12}, {"item", 12},   {cut_label, 1}};
  EXPECT_EQ(events, expected);
  EXPECT_EQ(lines.front().time_ns, 0u);
  EXPECT_EQ(lines.front().event, "> outer");
  EXPECT_EQ(lines.back().event, cut_label);
  EXPECT_EQ(lines.back().n, "80");
  EXPECT_EQ(lines[1].event, "> step");
  EXPECT_EQ(lines[1].n, "-");
  EXPECT_EQ(lines[2].n, "1");
}

TEST_F(TickOutput, TheTraceIsChromeJsonWithNestedScopesTicksAndThreadNames) {
  const fs::path path = dir / "trace.json";
  EXPECT_EQ(run_tick_probe("PERF_REPORT=off PERF_TRACE=" + path.string()), "");
  const json trace = json::parse(read_file(path));
  EXPECT_EQ(trace.at("displayTimeUnit"), "ns");
  std::map<std::string, int> complete, instant;
  std::vector<std::string> thread_names;
  std::map<long, std::vector<std::pair<double, double>>> open_by_thread;  // (start, end) stack
  for (const json& e : trace.at("traceEvents")) {
    const std::string phase = e.at("ph");
    const long tid = e.at("tid");
    if (phase == "M") {
      if (e.at("name") == "thread_name") thread_names.push_back(e.at("args").at("name"));
      continue;
    }
    const double ts = e.at("ts");
    auto& open = open_by_thread[tid];
    // Events come by start time; whatever ended before this one started is closed.
    while (!open.empty() && open.back().second <= ts) open.pop_back();
    if (phase == "X") {
      ++complete[e.at("name")];
      const double end = ts + e.at("dur").get<double>();
      if (!open.empty()) { EXPECT_LE(end, open.back().second + 0.002) << e.dump() << " does not nest"; }
      open.push_back({ts, end});
    } else {
      ASSERT_EQ(phase, "i") << e.dump();
      EXPECT_EQ(e.at("s"), "t");
      ++instant[e.at("name")];
      if (e.at("name") == "step") { EXPECT_GE(e.at("args").at("n").get<int>(), 1); }
    }
  }
  EXPECT_EQ(complete, (std::map<std::string, int>{{"outer", 1}, {"step", 3}, {"task", 12}}));
  EXPECT_EQ(instant, (std::map<std::string, int>{{"step", 3}, {"item", 12}, {cut_label, 1}}));
  std::sort(thread_names.begin(), thread_names.end());
  ASSERT_EQ(thread_names.size(), 4u);
  EXPECT_EQ(std::vector<std::string>(thread_names.begin() + 1, thread_names.end()),
            (std::vector<std::string>{"worker-1", "worker-2", "worker-3"}));
}

// A ring too small for the run keeps the exits of scopes it lost the enters of: each
// is a complete event from the first event kept, saying so in args.cut.
TEST_F(TickOutput, TheTraceShowsScopesEnteredBeforeTheFirstEventKeptFromThere) {
  const fs::path path = dir / "wrapped.json";
  EXPECT_EQ(run_tick_probe("PERF_REPORT=off PERF_RING_EVENTS=16 PERF_TRACE=" + path.string(), "wrap-spans"), "");
  const json trace = json::parse(read_file(path));
  std::vector<std::string> spans;
  for (const json& e : trace.at("traceEvents")) {
    if (e.at("ph") != "X") continue;
    const bool cut = e.contains("args");
    if (cut) { EXPECT_EQ(e.at("args").at("cut"), "entered before the first event kept"); }
    spans.push_back(
        fmt::format("{} at {}{}", e.at("name").get<std::string>(), e.at("ts").get<double>(), cut ? " (cut)" : ""));
  }
  ASSERT_EQ(spans.size(), 3u);
  EXPECT_EQ(spans[0], "outer at 0 (cut)");
  EXPECT_EQ(spans[1], "middle at 0 (cut)");
  EXPECT_EQ(spans[2].substr(0, 8), "step at ");
}

TEST_F(TickOutput, TheReportCountsEventsKeptAndDroppedPerThread) {
  const fs::path report = dir / "report.json";
  EXPECT_EQ(run_tick_probe("PERF_RING_EVENTS=16 PERF_REPORT=" + report.string(), "wrap"), "");
  const json parsed = json::parse(read_file(report));
  EXPECT_EQ(parsed.at("ticklog"), json::parse(R"({"enabled": true, "events": 16, "dropped": 84, "ring_events": 16})"));
  ASSERT_EQ(parsed.at("threads").size(), 1u);
  EXPECT_EQ(parsed.at("threads").at(0).at("tick_events"), 16);
  EXPECT_EQ(parsed.at("threads").at(0).at("tick_dropped"), 84);
}

// A ring that overflowed: the report names the PERF_RING_EVENTS that keeps the whole
// run, and the trace marks where the thread's timeline starts, and why.
TEST_F(TickOutput, DroppedEventsAreSaidInTheTraceWhereTheTimelineStartsAndTheReportNamesTheRingThatKeepsThem) {
  const fs::path report = dir / "report.txt", trace_path = dir / "trace.json";
  EXPECT_EQ(run_tick_probe("PERF_RING_EVENTS=16 PERF_REPORT=" + report.string() + " PERF_TRACE=" + trace_path.string(),
                           "wrap"),
            "");
  const std::string text = read_file(report);
  EXPECT_NE(text.find("\ntick log: 16 events kept, 84 dropped (ring of 16 events per thread; PERF_RING_EVENTS=128 "
                      "keeps the whole run)\n"),
            std::string::npos)
      << text;
  const json trace = json::parse(read_file(trace_path));
  std::vector<json> markers;
  double first_tick = -1;
  for (const json& e : trace.at("traceEvents")) {
    if (e.value("cat", "") == "perf") markers.push_back(e);
    if (first_tick < 0 && e.at("ph") == "i" && e.value("cat", "") != "perf") first_tick = e.at("ts");
  }
  ASSERT_EQ(markers.size(), 1u) << trace.dump();
  EXPECT_EQ(markers[0].at("ph"), "i");
  EXPECT_EQ(markers[0].at("name"),
            "perf: the timeline starts here: 84 older events of this thread dropped before it (PERF_RING_EVENTS=128 "
            "keeps them)");
  EXPECT_EQ(markers[0].at("args").at("dropped"), 84);
  EXPECT_EQ(markers[0].at("ts").get<double>(), first_tick);
}

TEST_F(TickOutput, AFullRingKeepsTheNewestEvents) {
  const fs::path path = dir / "ticks.txt";
  EXPECT_EQ(run_tick_probe("PERF_REPORT=off PERF_RING_EVENTS=10 PERF_TICKLOG=" + path.string(), "wrap"), "");
  const std::vector<dump_line> lines = parse_dump(read_file(path));
  ASSERT_EQ(lines.size(), 16u);  // 10 rounded up to a power of two
  EXPECT_EQ(lines.front().n, "84");
  EXPECT_EQ(lines.back().n, "99");
}

TEST_F(TickOutput, TheNewestExitedThreadsKeepTheirRingsAndNewThreadsTakeTheOthers) {
  const fs::path report = dir / "report.json", ticks = dir / "ticks.txt";
  EXPECT_EQ(run_tick_probe("PERF_REPORT=" + report.string() + " PERF_TICKLOG=" + ticks.string(), "churn"), "");
  const json parsed = json::parse(read_file(report));
  // 70 threads of 3 events: the first 64 to exit have a row each, the last 6 share
  // their name's; the newest 8 keep their rings (PERF_RINGS_KEPT), the 62 before
  // them gave theirs to later threads.
  const json& threads = parsed.at("threads");
  ASSERT_EQ(threads.size(), 65u);
  for (size_t t = 0; t < 64; ++t) {
    EXPECT_TRUE(threads[t].at("exited").get<bool>());
    EXPECT_EQ(threads[t].at("threads"), 1) << t;
    EXPECT_EQ(threads[t].at("tick_events"), t < 62 ? 0 : 3) << t;
    EXPECT_EQ(threads[t].at("tick_dropped"), t < 62 ? 3 : 0) << t;
  }
  EXPECT_EQ(threads[64].at("tid"), 0);
  EXPECT_EQ(threads[64].at("threads"), 6);
  EXPECT_EQ(threads[64].at("tick_events"), 18);
  EXPECT_EQ(threads[64].at("tick_dropped"), 0);
  EXPECT_EQ(parsed.at("ticklog"),
            json::parse(R"({"enabled": true, "events": 24, "dropped": 186, "ring_events": 65536})"));
  std::vector<std::string> header;
  EXPECT_EQ(parse_dump(read_file(ticks), &header).size(), 24u);
  ASSERT_FALSE(header.empty());
  EXPECT_NE(header[0].find(": 24 events of 70 threads, 186 older ones dropped"), std::string::npos) << header[0];
}

TEST_F(TickOutput, RingsKeptSetsHowManyExitedThreadsKeepTheirRings) {
  const fs::path report = dir / "report.json";
  EXPECT_EQ(run_tick_probe("PERF_RINGS_KEPT=0 PERF_REPORT=" + report.string(), "churn"), "");
  EXPECT_EQ(json::parse(read_file(report)).at("ticklog"),
            json::parse(R"({"enabled": true, "events": 0, "dropped": 210, "ring_events": 65536})"));
  EXPECT_EQ(run_tick_probe("PERF_RINGS_KEPT=100 PERF_REPORT=" + report.string(), "churn"), "");
  EXPECT_EQ(json::parse(read_file(report)).at("ticklog"),
            json::parse(R"({"enabled": true, "events": 210, "dropped": 0, "ring_events": 65536})"));
  EXPECT_EQ(run_tick_probe("PERF_RINGS_KEPT=lots PERF_REPORT=" + report.string(), "churn"),
            "perf: PERF_RINGS_KEPT='lots' is not a count from 0 to 4096; using 8\n");
}

TEST_F(TickOutput, ABadRingSizeWarnsAndTheDefaultHolds) {
  const fs::path report = dir / "report.json";
  EXPECT_EQ(run_tick_probe("PERF_RING_EVENTS=lots PERF_REPORT=" + report.string(), "wrap"),
            "perf: PERF_RING_EVENTS='lots' is not a count from 1 to 268435456; using 65536\n");
  EXPECT_EQ(json::parse(read_file(report)).at("ticklog").at("events"), 100);
}

TEST_F(TickOutput, TicksOffLogsNothingAndWritesNoLog) {
  const fs::path report = dir / "report.json";
  EXPECT_EQ(
      run_tick_probe("PERF_TICKS=off PERF_TICKLOG=" + (dir / "ticks.txt").string() + " PERF_REPORT=" + report.string()),
      "");
  EXPECT_FALSE(fs::exists(dir / "ticks.txt"));
  const json parsed = json::parse(read_file(report));
  EXPECT_EQ(parsed.at("ticklog"), json::parse(R"({"enabled": false, "events": 0, "dropped": 0, "ring_events": 0})"));
  EXPECT_EQ(parsed.at("functions").size(), 3u);  // the statistics are still there
}

TEST_F(TickOutput, DumpTicksWritesWhatIsLoggedSoFar) {
  const fs::path path = dir / "now-%p.txt";
  EXPECT_EQ(run_tick_probe("PERF_REPORT=off", "dump " + path.string()), "");
  ASSERT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  const std::vector<dump_line> lines = parse_dump(read_file(fs::directory_iterator(dir)->path()));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].n, "1");
  EXPECT_EQ(lines[1].n, "2");
}

using perf::testing::expect_killed_by;

// What a probe run in `mode`, which must die of `signal`, left at PERF_TICKLOG=`path`:
// the first line and the events.
struct crash_dump {
  std::string first_line;
  std::vector<dump_line> lines;
};
crash_dump crash_probe(const fs::path& path, const std::string& mode, int signal) {
  const perf::testing::probe_result result =
      perf::testing::run_probe_program(PERF_TICK_PROBE, "PERF_REPORT=off PERF_TICKLOG=" + path.string(), mode);
  expect_killed_by(result.status, signal);
  std::vector<std::string> header;
  crash_dump dump;
  dump.lines = parse_dump(read_file(path), &header);
  if (!header.empty()) dump.first_line = header[0];
  return dump;
}

TEST_F(TickOutput, ACrashDumpsTheLastEventsToTheTicklogPathAndTheSignalStillKills) {
  const auto [first_line, lines] = crash_probe(dir / "crash.txt", "segv", SIGSEGV);
  EXPECT_NE(first_line.find("written on SIGSEGV: the last events (at most 4096 each) of 1 thread"), std::string::npos)
      << first_line;
  ASSERT_EQ(lines.size(), 11u);
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(lines[static_cast<size_t>(i)].n, std::to_string(i + 1));
    EXPECT_EQ(lines[static_cast<size_t>(i)].event, "before");
  }
  EXPECT_EQ(lines.back().event, "> crashing");
}

// The record names the thread that faulted (id and name), the signal and the faulting
// address, and one line on stderr says where the record is.
TEST_F(TickOutput, ACrashRecordNamesTheFaultingThreadAndAddressAndStderrSaysWhereItIs) {
  const fs::path path = dir / "crash.txt";
  const auto [result, tid, address] =
      perf::testing::run_crashing_probe("PERF_REPORT=off PERF_TICKLOG=" + path.string(), "segv-named");
  ASSERT_NE(tid, 0);
  const std::string cause = "SIGSEGV on thread " + std::to_string(tid) + " (rk-worker-1), faulting address " + address;
  // Then the shell that ran the probe says how it died.
  const std::string expected = "tick_probe: thread " + std::to_string(tid) + " writes to " + address +
                               "\nperf: " + cause + ": the crash record is in '" + path.string() + "'\n";
  EXPECT_EQ(result.output.substr(0, expected.size()), expected);
  std::vector<std::string> header;
  const std::vector<dump_line> lines = parse_dump(read_file(path), &header);
  ASSERT_EQ(header.size(), 3u);
  EXPECT_NE(header[0].find("written on SIGSEGV: the last events (at most 4096 each) of 1 thread"), std::string::npos)
      << header[0];  // the main thread logged nothing
  EXPECT_EQ(header[1], "# " + cause);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines.back().tid, tid);
  EXPECT_EQ(lines.back().event, "> crashing");
}

TEST_F(TickOutput, ACrashDumpHoldsEveryThreadExitedOrAlive) {
  const auto [first_line, lines] = crash_probe(dir / "crash.txt", "segv-threads", SIGSEGV);
  EXPECT_NE(first_line.find("written on SIGSEGV: the last events (at most 4096 each) of 3 threads"), std::string::npos)
      << first_line;
  std::map<std::string, std::vector<std::string>> values_by_event;
  std::map<std::string, std::set<long>> threads_by_event;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i != 0) { EXPECT_GE(lines[i].time_ns, lines[i - 1].time_ns); }
    values_by_event[lines[i].event].push_back(lines[i].n);
    threads_by_event[lines[i].event].insert(lines[i].tid);
  }
  EXPECT_EQ(values_by_event["finished"], (std::vector<std::string>{"1", "2", "3"}));
  EXPECT_EQ(values_by_event["waiting"], (std::vector<std::string>{"1", "2", "3"}));
  EXPECT_EQ(values_by_event["before"].size(), 10u);
  EXPECT_EQ(values_by_event["> crashing"], std::vector<std::string>{"-"});
  ASSERT_EQ(lines.size(), 17u);
  EXPECT_EQ(lines.back().event, "> crashing");
  const long finished = *threads_by_event["finished"].begin(), waiting = *threads_by_event["waiting"].begin(),
             main_thread = *threads_by_event["before"].begin();
  EXPECT_EQ(
      threads_by_event["finished"].size() + threads_by_event["waiting"].size() + threads_by_event["before"].size(), 3u);
  EXPECT_NE(finished, waiting);
  EXPECT_NE(finished, main_thread);
  EXPECT_NE(waiting, main_thread);
}

TEST_F(TickOutput, AStackOverflowIsDumpedToo) {
  const auto [first_line, lines] = crash_probe(dir / "crash.txt", "overflow", SIGSEGV);
  EXPECT_NE(first_line.find("written on SIGSEGV"), std::string::npos) << first_line;
  ASSERT_EQ(lines.size(), 3u);
  for (size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(lines[i].n, std::to_string(i + 1));
    EXPECT_EQ(lines[i].event, "before");
  }
}

TEST_F(TickOutput, AnAbortDumpsToStderrWithoutATicklogPath) {
  const perf::testing::probe_result result =
      perf::testing::run_probe_program(PERF_TICK_PROBE, "PERF_REPORT=off", "abort");
  expect_killed_by(result.status, SIGABRT);
  EXPECT_NE(result.output.find("written on SIGABRT: the last events (at most 64 each) of 1 thread"), std::string::npos)
      << result.output;
  const std::vector<dump_line> lines = parse_dump(result.output.substr(result.output.find("# perf-instrument")));
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[0].n, "1");
  EXPECT_EQ(lines[2].n, "3");
  // A signal sent, not a fault: the record says by whom (abort() on the main thread, whose
  // id is the pid); on stderr already, no line says where it is.
  const size_t cause = result.output.find("\n# SIGABRT on thread ");
  ASSERT_NE(cause, std::string::npos) << result.output;
  long tid = 0, sender = 0;
  char name[16] = {};
  ASSERT_EQ(std::sscanf(result.output.c_str() + cause, "\n# SIGABRT on thread %ld (%15[^)]), sent by pid %ld\n", &tid,
                        name, &sender),
            3)
      << result.output;
  EXPECT_EQ(tid, sender);
  EXPECT_EQ(std::string(name), fs::path(PERF_TICK_PROBE).filename().string().substr(0, 15));  // its comm
  EXPECT_EQ(result.output.find("the crash record is in"), std::string::npos) << result.output;
}

TEST_F(TickOutput, AForkedChildsCrashDumpIsItsOwnAndTheParentsExitLeavesIt) {
  const perf::testing::probe_result result = perf::testing::run_probe_program(
      PERF_TICK_PROBE, "PERF_REPORT=off PERF_TICKLOG=" + (dir / "ticks-%p.txt").string(), "fork-abort");
  EXPECT_EQ(result.status, 0) << result.output;
  std::vector<dump_line> crash, exit;
  int files = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    ++files;
    std::vector<std::string> header;
    const std::vector<dump_line> lines = parse_dump(read_file(entry.path()), &header);
    ASSERT_FALSE(header.empty()) << entry.path();
    // Each file is named after the process that wrote it, as its first line says.
    const size_t pid_at = header[0].find(", pid ") + 6;
    const std::string pid = header[0].substr(pid_at, header[0].find_first_not_of("0123456789", pid_at) - pid_at);
    EXPECT_EQ(entry.path().filename(), "ticks-" + pid + ".txt") << header[0];
    (header[0].find("written on SIGABRT") != std::string::npos ? crash : exit) = lines;
  }
  ASSERT_EQ(files, 2) << "the child's crash dump and the parent's log should be two files";
  auto count = [](const std::vector<dump_line>& lines, const std::string& event) {
    return std::count_if(lines.begin(), lines.end(), [&](const dump_line& l) { return l.event == event; });
  };
  EXPECT_EQ(count(crash, "child"), 3);
  EXPECT_EQ(count(crash, "> step"), 3);  // its measured calls
  EXPECT_EQ(count(crash, "< step"), 3);
  EXPECT_EQ(count(exit, "parent"), 3);
  EXPECT_EQ(count(exit, "child"), 0);
  EXPECT_EQ(count(exit, "> step"), 0);
}

TEST_F(TickOutput, ACrashDumpThatCannotBeWrittenSaysSoOnStderr) {
  const fs::path full = dir / "full";
  perf::testing::make_character_device(full, 1, 7);
  const perf::testing::probe_result result =
      perf::testing::run_probe_program(PERF_TICK_PROBE, "PERF_REPORT=off PERF_TICKLOG=" + full.string(), "abort");
  expect_killed_by(result.status, SIGABRT);
  EXPECT_NE(
      result.output.find("perf: the crash dump to '" + full.string() + "' is cut short: no space left on device\n"),
      std::string::npos)
      << result.output;
}

TEST_F(TickOutput, ACrashDumpCutShortByAFileSizeLimitEndsWithAMarkerLine) {
  const fs::path path = dir / "crash.txt";
  const perf::testing::probe_result result =
      perf::testing::run_probe_program(PERF_TICK_PROBE, "PERF_REPORT=off PERF_TICKLOG=" + path.string(), "abort-fsize");
  expect_killed_by(result.status, SIGABRT);
  const std::string text = read_file(path);
  const std::string marker = "\n# perf: the dump is cut short here: file too large\n";
  EXPECT_EQ(text.size(), 4096u);
  ASSERT_GE(text.size(), marker.size());
  EXPECT_EQ(text.substr(text.size() - marker.size()), marker);
  EXPECT_NE(result.output.find("perf: the crash dump to '" + path.string() +
                               "' is cut short: file too large; its last line says where\n"),
            std::string::npos)
      << result.output;
}

}  // namespace
