// The report an instrumented program writes when it exits, driven through PERF_*.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <climits>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "probe_runner.hpp"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// Runs the probe with a clean PERF_* environment plus `environment`; returns its stderr.
std::string run_exit_probe(const std::string& environment, const std::string& mode = "") {
  const perf::testing::probe_result result = perf::testing::run_probe_program(PERF_EXIT_PROBE, environment, mode);
  EXPECT_EQ(result.status, 0) << environment << " " << mode;
  return result.output;
}

using perf::testing::read_file;

std::map<std::string, uint64_t> calls_by_name(const json& report) {
  std::map<std::string, uint64_t> calls;
  for (const json& f : report.at("functions")) calls[f.at("name").get<std::string>()] = f.at("calls").get<uint64_t>();
  return calls;
}

using ExitReport = perf::testing::ProbeTest;

TEST_F(ExitReport, GoesToStderrByDefaultWithEveryCallIncludingExitedThreadsAndStaticDestructors) {
  const std::string text = run_exit_probe("");
  EXPECT_NE(text.find("perf-instrument report (pid "), std::string::npos) << text;
  EXPECT_NE(text.find("3 functions measured on 2 threads (1 exited)"), std::string::npos) << text;
  // Names are followed by two spaces, or by " *" when the probe dominates them.
  EXPECT_NE(text.find("\nparse "), std::string::npos) << text;
  EXPECT_NE(text.find("\nworker_step "), std::string::npos) << text;
  EXPECT_NE(text.find("\nat_static_destruction "), std::string::npos) << text;
}

TEST_F(ExitReport, JsonPathGetsValidJsonWithExactCounts) {
  const fs::path report = dir / "report.json";
  EXPECT_EQ(run_exit_probe("PERF_REPORT=" + report.string()), "");
  const json parsed = json::parse(read_file(report));
  const std::map<std::string, uint64_t> expected = {{"parse", 3}, {"worker_step", 4}, {"at_static_destruction", 1}};
  EXPECT_EQ(calls_by_name(parsed), expected);
  for (const char* field : {"name", "file", "line", "calls", "total_ns", "self_ns", "mean_ns", "min_ns", "max_ns",
                            "stddev_ns", "p50_ns", "p90_ns", "p99_ns"})
    EXPECT_TRUE(parsed.at("functions").at(0).contains(field)) << field;
  EXPECT_EQ(parsed.at("threads").size(), 2u);
  EXPECT_GT(parsed.at("clock").at("ghz").get<double>(), 0.0);
}

TEST_F(ExitReport, OtherPathsGetTheTextTableAndPercentPIsThePid) {
  EXPECT_EQ(run_exit_probe("PERF_REPORT=" + (dir / "report-%p.txt").string()), "");
  ASSERT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  const fs::path written = fs::directory_iterator(dir)->path();
  const std::string pid = written.filename().string().substr(7, written.filename().string().size() - 11);
  EXPECT_EQ(written.filename().string(), "report-" + pid + ".txt");
  EXPECT_NE(read_file(written).find("perf-instrument report (pid " + pid + ")"), std::string::npos);
}

TEST_F(ExitReport, OffWritesNothing) {
  EXPECT_EQ(run_exit_probe("PERF_REPORT=off"), "");
  EXPECT_TRUE(fs::is_empty(dir));
}

// Test discovery runs every test program with a listing flag (gtest_discover_tests at
// build time): no report in the build log, nor in the file PERF_REPORT names.
TEST_F(ExitReport, ARunThatOnlyListsTestsWritesNone) {
  EXPECT_EQ(run_exit_probe("", "--gtest_list_tests"), "");
  EXPECT_EQ(run_exit_probe("", "--list-tests"), "");
  EXPECT_EQ(run_exit_probe("PERF_REPORT=" + (dir / "report.json").string(), "--gtest_list_tests"), "");
  EXPECT_TRUE(fs::is_empty(dir));
  const std::string listing_off = run_exit_probe("", "--gtest_list_tests=0");
  EXPECT_NE(listing_off.find("3 functions measured on 2 threads (1 exited)"), std::string::npos) << listing_off;
}

TEST_F(ExitReport, APathLeadingToStderrOrADeviceIsWrittenThereAndLeftAsItIs) {
  // As PERF_REPORT=/dev/stderr does, through a private link rather than the system's /dev.
  fs::create_symlink("/proc/self/fd/2", dir / "stderr");
  const std::string text = run_exit_probe("PERF_REPORT=" + (dir / "stderr").string());
  EXPECT_EQ(text.find("perf-instrument report (pid "), 0u) << text;
  EXPECT_NE(text.find("3 functions measured"), std::string::npos) << text;
  EXPECT_TRUE(fs::is_symlink(dir / "stderr"));
  perf::testing::make_character_device(dir / "null", 1, 3);
  EXPECT_EQ(run_exit_probe("PERF_REPORT=" + (dir / "null").string()), "");
  EXPECT_TRUE(fs::is_character_file(dir / "null"));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 2);
}

TEST_F(ExitReport, AnUnwritablePathWarnsOnceAndTheReportStillReachesStderr) {
  const std::string path = (dir / "missing" / "report.json").string();
  const std::string text = run_exit_probe("PERF_REPORT=" + path);
  const std::string warning =
      "perf: cannot write the report to '" + path + "': No such file or directory; writing it to stderr instead\n";
  ASSERT_EQ(text.substr(0, warning.size()), warning);
  EXPECT_NE(text.find("3 functions measured"), std::string::npos) << text;
}

// A report file the user made read-only, in a directory the program may write: the
// rename would replace it, open() would refuse it, and the runtime refuses it as open()
// would. As root the probe runs without the capabilities that let root write any file.
TEST_F(ExitReport, AReadOnlyReportFileIsNotReplacedAndTheReportReachesStderr) {
  const fs::path report = dir / "report.txt";
  { std::ofstream(report) << "the user's own file\n"; }
  fs::permissions(report, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  const std::string without_override = geteuid() == 0 ? "setpriv --inh-caps=-dac_override,-dac_read_search "
                                                        "--bounding-set=-dac_override,-dac_read_search "
                                                      : "";
  const perf::testing::probe_result run =
      perf::testing::run_probe_program(without_override + PERF_EXIT_PROBE, "PERF_REPORT=" + report.string());
  EXPECT_EQ(run.status, 0) << run.output;
  const std::string warning =
      "perf: cannot write the report to '" + report.string() + "': Permission denied; writing it to stderr instead\n";
  ASSERT_EQ(run.output.substr(0, warning.size()), warning) << run.output;
  EXPECT_NE(run.output.find("3 functions measured"), std::string::npos) << run.output;
  EXPECT_EQ(read_file(report), "the user's own file\n");
  EXPECT_EQ(fs::status(report).permissions(), fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);  // no temporary left
}

// The most resident memory one run of the exit probe took (wait4's ru_maxrss, KiB),
// with no PERF_* variable but `settings`; its output discarded.
long exit_probe_max_rss_kib(const std::vector<std::string>& settings) {
  std::vector<std::string> variables;
  for (char** v = environ; *v != nullptr; ++v)
    if (std::string(*v).rfind("PERF_", 0) != 0) variables.emplace_back(*v);
  variables.insert(variables.end(), settings.begin(), settings.end());
  std::vector<char*> env;  // made before fork: the child only execs
  for (std::string& v : variables) env.push_back(v.data());
  env.push_back(nullptr);
  char program[] = PERF_EXIT_PROBE;
  char* argv[] = {program, nullptr};
  const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  const pid_t child = fork();
  if (child == 0) {
    dup2(null, STDOUT_FILENO);
    dup2(null, STDERR_FILENO);
    execve(program, argv, env.data());
    _exit(127);
  }
  ::close(null);
  int status = 0;
  rusage usage{};
  EXPECT_EQ(wait4(child, &status, 0, &usage), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  return usage.ru_maxrss;
}

// A short program with sampling on that took no sample pays nothing at exit for
// symbolizing: no symbolizer is loaded (libbacktrace read every module's debug
// information, ~25 MB more resident memory, to name the measured functions' code).
// At 1 Hz of CPU time the probe's few milliseconds take no sample.
TEST_F(ExitReport, AProgramThatTookNoSampleLoadsNoSymbolizerAtExit) {
#if defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "TSan maps shadow memory for every page its runtime touches: resident sizes are its own";
#endif
  const fs::path report = dir / "report.json";
  long sampling = LONG_MAX, off = LONG_MAX;
  for (int run = 0; run < 3; ++run) {  // the least of three: the runs' own noise is a few hundred KiB
    off = std::min(off, exit_probe_max_rss_kib({"PERF_SAMPLE_HZ=0", "PERF_REPORT=off"}));
    sampling = std::min(sampling, exit_probe_max_rss_kib({"PERF_SAMPLE_HZ=1", "PERF_REPORT=" + report.string()}));
    const json samples = json::parse(read_file(report)).at("samples");
    ASSERT_EQ(samples.at("hz"), 1u);
    ASSERT_EQ(samples.at("total"), 0u) << "the probe took a sample";
  }
  EXPECT_LT(sampling - off, 4096) << "sampling on: " << sampling << " KiB, off: " << off << " KiB";
}

TEST_F(ExitReport, ABadClockValueWarnsAndMeasuringGoesOn) {
  const fs::path report = dir / "report.json";
  const std::string text = run_exit_probe("PERF_CLOCK=sundial PERF_REPORT=" + report.string());
  EXPECT_EQ(text.find("perf: PERF_CLOCK='sundial' is not one of auto, tsc, rdtscp, tsc-fenced, monotonic; using "), 0u)
      << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1);
  EXPECT_EQ(calls_by_name(json::parse(read_file(report))).at("parse"), 3u);
}

TEST_F(ExitReport, TheMonotonicClockCountsNanoseconds) {
  const fs::path report = dir / "report.json";
  run_exit_probe("PERF_CLOCK=monotonic PERF_REPORT=" + report.string());
  const json clock = json::parse(read_file(report)).at("clock");
  EXPECT_EQ(clock.at("source"), "clock_gettime(CLOCK_MONOTONIC)");
  EXPECT_EQ(clock.at("ghz"), 1.0);
  EXPECT_EQ(clock.at("frequency"), "exact");
  EXPECT_GE(clock.at("resolution_ns").get<double>(), 1.0);  // a step of at least one nanosecond
}

TEST_F(ExitReport, StatesTheProbeCostItSubtractedAndWhatTheProbeCostTheRun) {
  const fs::path report = dir / "report.json";
  EXPECT_EQ(run_exit_probe("PERF_REPORT=" + report.string()), "");
  const json parsed = json::parse(read_file(report));
  const json& clock = parsed.at("clock");
  EXPECT_EQ(clock.at("compensated"), true);
  const double probe_ns = clock.at("probe_ns").get<double>();
  EXPECT_GT(probe_ns, 0.0);
  EXPECT_GE(clock.at("probe_inside_ns").get<double>(), 0.0);
  EXPECT_LE(clock.at("probe_inside_ns").get<double>(), probe_ns);
  const json& overhead = parsed.at("probe_overhead");
  EXPECT_EQ(overhead.at("calls"), 8u);                              // 3 parse, 4 worker_step, 1 at_static_destruction
  EXPECT_NEAR(overhead.at("ns").get<double>(), 8 * probe_ns, 0.1);  // probe_ns is rounded to 0.01 ns
  uint64_t dominated_functions = 0, dominated_calls = 0;
  for (const json& f : parsed.at("functions")) {
    if (!f.at("probe_dominated").get<bool>()) continue;
    ++dominated_functions;
    dominated_calls += f.at("calls").get<uint64_t>();
  }
  EXPECT_EQ(overhead.at("dominated_functions"), dominated_functions);
  EXPECT_EQ(overhead.at("dominated_calls"), dominated_calls);
  EXPECT_GT(overhead.at("process_cpu_ns").get<double>(), 0.0);
}

TEST_F(ExitReport, CompensateOffShowsTheRawFiguresAndSaysSo) {
  const std::string text = run_exit_probe("PERF_COMPENSATE=off");
  EXPECT_NE(text.find(" a call ("), std::string::npos) << text;
  EXPECT_NE(text.find(" inside), not subtracted (PERF_COMPENSATE=off)\n"), std::string::npos) << text;
  const fs::path report = dir / "report.json";
  run_exit_probe("PERF_COMPENSATE=off PERF_REPORT=" + report.string());
  EXPECT_EQ(json::parse(read_file(report)).at("clock").at("compensated"), false);
}

TEST_F(ExitReport, ABadCompensateValueWarnsAndSubtracts) {
  const fs::path report = dir / "report.json";
  const std::string text = run_exit_probe("PERF_COMPENSATE=maybe PERF_REPORT=" + report.string());
  EXPECT_EQ(text, "perf: PERF_COMPENSATE='maybe' is neither on nor off; the probe's cost is subtracted\n");
  EXPECT_EQ(json::parse(read_file(report)).at("clock").at("compensated"), true);
}

TEST_F(ExitReport, ExitFromInsideAMeasuredFunctionKeepsTheFinishedCalls) {
  const fs::path report = dir / "report.json";
  run_exit_probe("PERF_REPORT=" + report.string(), "exit");
  // exits_midway never returned, so it has no finished call to show; exit() still
  // runs the static destructors before the report.
  const std::map<std::string, uint64_t> expected = {{"parse", 2}, {"at_static_destruction", 1}};
  EXPECT_EQ(calls_by_name(json::parse(read_file(report))), expected);
}

TEST_F(ExitReport, AForkedChildWritesItsOwnReport) {
  run_exit_probe("PERF_REPORT=" + (dir / "report-%p.json").string(), "fork");
  std::map<uint64_t, uint64_t> parse_calls_by_pid;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    const json parsed = json::parse(read_file(entry.path()));
    EXPECT_EQ(entry.path().filename().string(), "report-" + std::to_string(parsed.at("pid").get<long>()) + ".json");
    parse_calls_by_pid[parsed.at("pid").get<uint64_t>()] = calls_by_name(parsed).at("parse");
  }
  ASSERT_EQ(parse_calls_by_pid.size(), 2u);
  // The parent made one call; the child, starting empty, two.
  EXPECT_EQ(parse_calls_by_pid.begin()->second + parse_calls_by_pid.rbegin()->second, 3u);
  EXPECT_TRUE((parse_calls_by_pid.begin()->second == 1) != (parse_calls_by_pid.rbegin()->second == 1));
}

}  // namespace
