// The sampler end to end: probe programs with known CPU splits, their summaries and
// their profile files.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>

#include "go_pprof.hpp"
#include "sampler/sample_probe_summary.hpp"

namespace perf::testing {
namespace {

class Sampling : public ProbeTest {};

TEST_F(Sampling, AThreadBlockedInReadGetsItsDataWhileWallClockSamplesArrive) {
  const probe_result run = run_sample_probe("PERF_SAMPLE_HZ=1000 PERF_SAMPLE_CLOCK=wall", "blocked-read");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("read 1\n"), std::string::npos) << run.output;
  // Wall-clock samples reach the blocked thread: about 300 of them in 0.3 s (TSan
  // merges the signals that arrive while a thread is in a call it intercepts).
#if defined(__SANITIZE_THREAD__)
  constexpr uint64_t at_least = 0;
#else
  constexpr uint64_t at_least = 100;
#endif
  const probe_summary s = parse_summary(run.output);
  ASSERT_EQ(s.threads.size(), 2u) << run.output;
  for (const auto& [tid, entry] : s.threads) EXPECT_GT(entry.first, at_least) << run.output;
}

// The wall clock is sampled by timers (CLOCK_MONOTONIC ones, not held to the tick);
// PERF_SAMPLE_SOURCE=timer forces them for the CPU clock.
TEST_F(Sampling, TheSummaryNamesTheSourceThatSampled) {
  EXPECT_NE(run_sample_probe("PERF_SAMPLE_CLOCK=wall", "ratio 0.1").output.find("\nsource timer\n"), std::string::npos);
  EXPECT_NE(run_sample_probe("PERF_SAMPLE_SOURCE=timer", "ratio 0.1").output.find("\nsource timer\n"),
            std::string::npos);
}

// A program that closes the sampler's event descriptors and opens files under their
// numbers keeps its files: a thread's exit releases its source only while the
// descriptor is still the event. libunwind's pipe, which the program closes too and
// whose numbers its files may take, is never used by the unwinder (its address space's
// reads are the runtime's, checked: core/stack_unwind.hpp): stepping through qsort, it
// neither writes into the files nor reads from them nor closes them.
TEST_F(Sampling, FilesOpenedUnderTheNumbersOfClosedEventsStayOpen) {
  const probe_result run = run_sample_probe("PERF_SAMPLE_HZ=1000", "reused-descriptors 0.1");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("still open 16 of 16, 0 written or read\n"), std::string::npos) << run.output;
}

// A container whose seccomp profile refuses perf_event_open and timer_create: no
// thread can be sampled, and the program's stderr and its report say so and why
// (they said "samples: 0 at 1000 Hz" and nothing else).
TEST_F(Sampling, ThreadsTheKernelRefusesEverySourceAreNamedOnStderrAndInTheReport) {
  const std::string refused =
      "the kernel refused perf_event_open (Operation not permitted) and timer_create "
      "(Operation not permitted)";
  const std::string warning =
      "perf: a thread cannot be sampled: " + refused + "; the report counts the threads not sampled\n";
  const std::filesystem::path json_report = dir / "report.json";
  const probe_result run = run_probe_program(PERF_SECCOMP_EXEC " " PERF_SAMPLE_PROBE,
                                             "PERF_SAMPLE_HZ=1000 PERF_REPORT=" + json_report.string(), "threads 0.05");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(run.output.substr(0, warning.size()), warning) << run.output;
  EXPECT_EQ(run.output.find(warning, 1), std::string::npos) << "warned more than once: " << run.output;
  const nlohmann::json samples = nlohmann::json::parse(read_file(json_report)).at("samples");
  EXPECT_EQ(samples.at("total"), 0u);
  EXPECT_EQ(samples.at("unsampled_threads"), 3u) << samples;  // main and its two
  EXPECT_EQ(samples.at("unsampled_why"), refused);

  const std::filesystem::path text_report = dir / "report.txt";
  run_probe_program(PERF_SECCOMP_EXEC " " PERF_SAMPLE_PROBE,
                    "PERF_SAMPLE_HZ=1000 PERF_SAMPLE_SOURCE=timer PERF_REPORT=" + text_report.string(), "threads 0.05");
  const std::string text = read_file(text_report);
  EXPECT_NE(text.find("\n  3 threads not sampled: the kernel refused timer_create (Operation not permitted)\n"),
            std::string::npos)
      << text;
}

TEST_F(Sampling, ZeroRateTurnsSamplingOff) {
  const probe_result run = run_sample_probe("PERF_SAMPLE_HZ=0", "late-thread");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(run.output, "total 0\nprobe 0\n");
}

TEST_F(Sampling, BadRateIsNamedAndTheDefaultUsed) {
  const probe_result run = run_sample_probe("PERF_SAMPLE_HZ=fast", "late-thread");
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_EQ(run.output.substr(0, run.output.find('\n') + 1),
            "perf: PERF_SAMPLE_HZ='fast' is not a number from 0 to 10000; using 100\n");
}

// The stress probe's hazards at 1 kHz per thread: no hang (the timeout), no crash,
// no sanitizer report, and a profile written at the end.
TEST_F(Sampling, StressAtOneKilohertzEndsCleanly) {
  const std::string path = (dir / "stress.folded").string();
  const probe_result run = run_probe_program(
      "timeout 120 " PERF_STRESS_PROBE, "PERF_REPORT=off PERF_SAMPLE_HZ=1000 PERF_PROFILE=" + path, PERF_STRESS_PLUGIN);
  ASSERT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("stress done after"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("WARNING"), std::string::npos) << run.output;  // sanitizers' reports
  const std::string folded = read_file(path);
  EXPECT_NE(folded.find("allocate_and_spin"), std::string::npos) << folded;
}

// The shares need samples taken where the signal arrives. ThreadSanitizer delivers
// a signal only when the thread next enters its runtime (a spin loop never does), so
// under TSan these are not built; the tests above (stress, blocked read, settings) are.
#if !defined(__SANITIZE_THREAD__)

uint64_t samples_of(const probe_summary& s, const std::string& function) {
  const auto at = s.functions.find("(anonymous namespace)::" + function);
  return at == s.functions.end() ? 0 : at->second;
}

// Runs `scenario` at 1 kHz and expects `first`'s share of the samples of `first` and
// `second` to be `share` within three points, and the two to hold nearly all samples.
void expect_split(const std::string& scenario, const std::string& first, const std::string& second, double share) {
  const probe_result run = run_sample_probe("PERF_SAMPLE_HZ=1000", scenario);
  ASSERT_EQ(run.status, 0) << run.output;
  const probe_summary s = parse_summary(run.output);
  const double a = static_cast<double>(samples_of(s, first)), b = static_cast<double>(samples_of(s, second));
  ASSERT_GT(a + b, 200) << run.output;
  EXPECT_NEAR(a / (a + b), share, 0.03) << run.output;
  // The stacks are attributed, not lost.
  EXPECT_GT(a + b, 0.9 * static_cast<double>(s.total)) << run.output;
}

TEST_F(Sampling, AThreadStartedLateIsSampled) {
  expect_split("late-thread", "late_thread_work()", "main_thread_work()", 70.0 / 120);
}

TEST_F(Sampling, FoldedStacksNameTheHotFunctionBelowMain) {
  const std::string path = (dir / "profile.folded").string();
  const probe_result run = run_sample_probe("PERF_SAMPLE_HZ=1000 PERF_PROFILE=" + path, "ratio");
  ASSERT_EQ(run.status, 0) << run.output;
  const std::string folded = read_file(path);
  uint64_t hot = 0, all = 0;
  std::istringstream lines(folded);
  for (std::string line; std::getline(lines, line);) {
    const size_t space = line.rfind(' ');
    ASSERT_NE(space, std::string::npos) << line;
    const uint64_t count = std::stoull(line.substr(space + 1));
    all += count;
    if (line.find(";main;ratio;(anonymous namespace)::three_quarters(unsigned long) ") != std::string::npos)
      hot += count;
  }
  ASSERT_GT(all, 500u) << folded;
  EXPECT_NEAR(static_cast<double>(hot) / static_cast<double>(all), 0.75, 0.03) << folded;
}

// The line of the probe's source that holds `text`, counting from 1.
unsigned line_of(const std::string& text) {
  std::istringstream source(read_file(PERF_SAMPLE_PROBE_SOURCE));
  unsigned number = 0;
  for (std::string line; std::getline(source, line);)
    if (++number, line.find(text) != std::string::npos) return number;
  return 0;
}

// The exit report of a program with two busy threads names their functions and lines,
// with shares within three points of the CPU split, and each thread's samples.
TEST_F(Sampling, TheExitReportNamesTheHottestFunctionsAndLinesOfEveryThread) {
  const std::string path = (dir / "report.json").string();
  const probe_result run = run_probe_program(PERF_SAMPLE_PROBE, "PERF_SAMPLE_HZ=1000 PERF_REPORT=" + path, "threads");
  ASSERT_EQ(run.status, 0) << run.output;
  const auto report = nlohmann::json::parse(read_file(path));
  const auto& samples = report.at("samples");
  EXPECT_EQ(samples.at("hz"), 1000);
  EXPECT_EQ(samples.at("clock"), "cpu");
  const auto& top = samples.at("top");
  ASSERT_GE(top.size(), 2u) << samples.dump(1);
  EXPECT_EQ(top[0].at("function"), "(anonymous namespace)::heavy_thread_work()");
  EXPECT_EQ(top[1].at("function"), "(anonymous namespace)::light_thread_work()");
  const double heavy = top[0].at("samples"), light = top[1].at("samples");
  EXPECT_NEAR(heavy / (heavy + light), 2.0 / 3, 0.03) << samples.dump(1);
  const auto& hottest_line = samples.at("lines")[0];
  EXPECT_EQ(hottest_line.at("function"), "(anonymous namespace)::heavy_thread_work()");
  EXPECT_EQ(hottest_line.at("line"), line_of("void heavy_thread_work()"));
  EXPECT_NE(hottest_line.at("file").get<std::string>().find("sample_probe.cpp"), std::string::npos);
  // The two workers, the heavy one first (the main thread, waiting in join(), uses
  // next to no CPU: a sample or none).
  const auto& threads = samples.at("threads");
  ASSERT_GE(threads.size(), 2u) << samples.dump(1);
  ASSERT_LE(threads.size(), 3u) << samples.dump(1);
  EXPECT_EQ(threads[0].at("top")[0].at("function"), "(anonymous namespace)::heavy_thread_work()");
  EXPECT_EQ(threads[1].at("top")[0].at("function"), "(anonymous namespace)::light_thread_work()");
}

// The probe's own functions (perf::detail::begin and end, called out of line from the
// measured function) are never the most interesting element: their samples go to the
// measured function that called them, at its lines, and are counted apart.
TEST_F(Sampling, SamplesInsideTheProbeGoToTheMeasuredFunctionAndAreCountedApart) {
  const std::string path = (dir / "report.json").string();
  // Every call timed: adaptive timing would time few calls of this probe-dominated leaf.
  const probe_result run =
      run_probe_program(PERF_SAMPLE_PROBE, "PERF_TIMING=all PERF_SAMPLE_HZ=1000 PERF_REPORT=" + path, "measured-calls");
  ASSERT_EQ(run.status, 0) << run.output;
  const auto samples = nlohmann::json::parse(read_file(path)).at("samples");
  const uint64_t total = samples.at("total"), in_probes = samples.at("probe_samples");
  ASSERT_GT(total, 200u) << samples.dump(1);
  for (const char* list : {"top", "lines"})
    for (const auto& entry : samples.at(list))
      EXPECT_EQ(entry.at("function").get<std::string>().find("perf::"), std::string::npos) << samples.dump(1);
  const std::string measured = "(anonymous namespace)::measured_step(unsigned long)";
  const auto& top = samples.at("top")[0];
  EXPECT_EQ(top.at("function"), measured) << samples.dump(1);
  EXPECT_GT(top.at("share").get<double>(), 0.8) << samples.dump(1);
  // Two clock reads and their bookkeeping beside 20 multiplications: a good part of
  // the time, all of it charged to the measured function.
  EXPECT_GT(in_probes, total / 10) << samples.dump(1);
  EXPECT_LE(in_probes, top.at("samples").get<uint64_t>()) << samples.dump(1);
  // At the measured function's own lines: its signature, the scope, the loop, the brace.
  const unsigned first = line_of("void measured_step(uint64_t rounds)");
  uint64_t at_its_lines = 0;
  for (const auto& line : samples.at("lines")) {
    if (line.at("function") != measured) continue;
    EXPECT_GE(line.at("line").get<unsigned>(), first) << samples.dump(1);
    EXPECT_LE(line.at("line").get<unsigned>(), first + 3) << samples.dump(1);
    at_its_lines += line.at("samples").get<uint64_t>();
  }
  EXPECT_GT(static_cast<double>(at_its_lines), 0.8 * static_cast<double>(total)) << samples.dump(1);
}

// The report's lists go largest first, the measured functions' too.
TEST_F(Sampling, MeasuredFunctionsAreListedByShareLargestFirst) {
  const std::string path = (dir / "report.json").string();
  const probe_result run =
      run_probe_program(PERF_SAMPLE_PROBE, "PERF_SAMPLE_HZ=1000 PERF_REPORT=" + path, "two-measured");
  ASSERT_EQ(run.status, 0) << run.output;
  const auto measured = nlohmann::json::parse(read_file(path)).at("samples").at("measured");
  ASSERT_EQ(measured.size(), 2u) << measured.dump(1);
  EXPECT_EQ(measured[0].at("name"), "zeta_heavy") << measured.dump(1);
  EXPECT_EQ(measured[1].at("name"), "alpha_light") << measured.dump(1);
}

// A measured function left by longjmp is no longer open where the program goes on:
// the unmeasured work after the jump is not its (bail() took 80% of the measured
// functions' samples: the thread's innermost site stayed its own). bail() itself may
// take a sample now and then (its first call registers its site): at most 1%.
TEST_F(Sampling, AFunctionLeftByLongjmpGetsNoSampleOfTheWorkAfterTheJump) {
  const std::string path = (dir / "report.json").string();
  const probe_result run = run_probe_program(PERF_SAMPLE_PROBE, "PERF_SAMPLE_HZ=1000 PERF_REPORT=" + path, "abandoned");
  ASSERT_EQ(run.status, 0) << run.output;
  const auto samples = nlohmann::json::parse(read_file(path)).at("samples");
  const uint64_t total = samples.at("total").get<uint64_t>();
  ASSERT_GT(total, 200u) << samples.dump(1);
  const auto& measured = samples.at("measured");
  ASSERT_GE(measured.size(), 1u) << samples.dump(1);
  EXPECT_EQ(measured[0].at("name"), "zeta_heavy") << samples.dump(1);
  for (size_t i = 1; i < measured.size(); ++i) {
    EXPECT_EQ(measured[i].at("name"), "bail") << samples.dump(1);
    EXPECT_LE(measured[i].at("samples").get<uint64_t>() * 100, total) << samples.dump(1);
  }
  EXPECT_EQ(samples.at("top")[0].at("function"), "(anonymous namespace)::work_after_bail()") << samples.dump(1);
}

// The samples of the measured functions cheap_leaf and leaf_parent (sample_probe's
// untimed-leaf scenario) under `timing`, as the measured list and the hottest
// functions count them, and the leaf's calls and timed calls.
struct leaf_and_parent {
  uint64_t leaf = 0, parent = 0;                    // the measured list ("measured")
  uint64_t leaf_function = 0, parent_function = 0;  // the hottest functions ("top")
  uint64_t leaf_calls = 0, leaf_timed = 0;
  std::string dump;
};
leaf_and_parent sample_leaf_and_parent(const std::filesystem::path& dir, const std::string& timing) {
  const std::string path = (dir / "report.json").string();
  const probe_result run = run_probe_program(
      PERF_SAMPLE_PROBE, "PERF_TIMING=" + timing + " PERF_SAMPLE_HZ=4000 PERF_REPORT=" + path, "untimed-leaf");
  EXPECT_EQ(run.status, 0) << run.output;
  const auto report = nlohmann::json::parse(read_file(path));
  leaf_and_parent got;
  got.dump = report.at("samples").dump(1);
  for (const auto& m : report.at("samples").at("measured")) {
    if (m.at("name") == "cheap_leaf") got.leaf = m.at("samples");
    if (m.at("name") == "leaf_parent") got.parent = m.at("samples");
  }
  for (const auto& f : report.at("samples").at("top")) {
    if (f.at("function") == "(anonymous namespace)::cheap_leaf()") got.leaf_function = f.at("samples");
    if (f.at("function") == "(anonymous namespace)::parent_of_cheap_leaves()") got.parent_function = f.at("samples");
  }
  for (const auto& f : report.at("functions"))
    if (f.at("name") == "cheap_leaf") {
      got.leaf_calls = f.at("calls");
      got.leaf_timed = f.value("timed_calls", got.leaf_calls);
    }
  return got;
}

// The measured list's count of a function's samples and the hottest functions': within
// 1%, or 2 samples.
void expect_agree(uint64_t measured, uint64_t hottest, const std::string& dump) {
  const double tolerance = std::max(2.0, 0.01 * static_cast<double>(std::max(measured, hottest)));
  EXPECT_NEAR(static_cast<double>(measured), static_cast<double>(hottest), tolerance) << dump;
}

// A sample taken inside an untimed call of a sampled leaf, which opens no activation,
// goes to the leaf (the function it was taken in), not to its caller: the leaf, whose
// calls take about twice as long as the parent's own churn, takes most of the two
// functions' samples (before, the parent took all of them), as many as the hottest
// functions give it.
TEST_F(Sampling, ASampleInsideAnUntimedCallIsChargedToTheMeasuredFunctionItWasTakenIn) {
  const leaf_and_parent got = sample_leaf_and_parent(dir, "adaptive");
  ASSERT_EQ(got.leaf_calls, 20000000u) << got.dump;
  ASSERT_LT(got.leaf_timed, got.leaf_calls / 4) << "the leaf is sampled: most calls untimed";
  ASSERT_GT(got.leaf + got.parent, 200u) << got.dump;
  EXPECT_GE(got.leaf, (got.leaf + got.parent) / 2) << got.dump;
  EXPECT_GT(got.parent, (got.leaf + got.parent) / 40) << got.dump;
  // A sample on the very instructions of a call between the two may fall to either
  // list (267 against 266 in one run): they agree within 1%.
  expect_agree(got.leaf, got.leaf_function, got.dump);
  expect_agree(got.parent, got.parent_function, got.dump);
}

// Every call timed, the measured list agrees with the hottest functions too: a sample
// inside the leaf's probe, before its activation opens or after it closes, is the
// leaf's, as the hottest functions count it ("charged to the code that called them"),
// not its parent's (before, the parent's row held about half of the leaf's probe
// samples: 45% of the two rows where its own churn has some 9%).
TEST_F(Sampling, EveryCallTimedTheMeasuredFunctionsSamplesAreTheirHottestFunctionsSamples) {
  const leaf_and_parent got = sample_leaf_and_parent(dir, "all");
  ASSERT_EQ(got.leaf_timed, 20000000u) << got.dump;
  ASSERT_GT(got.leaf + got.parent, 200u) << got.dump;
  expect_agree(got.leaf, got.leaf_function, got.dump);
  expect_agree(got.parent, got.parent_function, got.dump);
  EXPECT_GT(got.parent, (got.leaf + got.parent) / 40) << got.dump;
}

// Runs `scenario` at 1 kHz and expects `function` to be the most interesting element of
// at least `share` of the samples.
void expect_charged_to(const std::string& scenario, const std::string& function, double share) {
  const probe_result run = run_sample_probe("PERF_SAMPLE_HZ=1000", scenario);
  ASSERT_EQ(run.status, 0) << run.output;
  const probe_summary s = parse_summary(run.output);
  ASSERT_GT(s.total, 200u) << run.output;
  EXPECT_GT(static_cast<double>(samples_of(s, function)), share * static_cast<double>(s.total)) << run.output;
}

// libstdc++'s code inlined into the program or instantiated in it (std::sort's
// helpers, from /usr/include/c++) is the library's: the user's function that calls it
// gets its samples.
TEST_F(Sampling, InlinedStandardLibraryCodeIsChargedToTheFunctionThatUsesIt) {
  expect_charged_to("sort", "sort_rounds()", 0.9);
}

// malloc and free keep no frame pointer (Debian's C library is built without them):
// the samples inside them still go to the function that calls them.
TEST_F(Sampling, TimeInMallocIsChargedToItsCaller) { expect_charged_to("allocate", "allocate_rounds()", 0.7); }

// The runtime's own work on the program's thread (a failing budget's stacks described:
// the symbolizer, libbacktrace and zlib reading the debug information) is not the
// program's: before, about one sample per millisecond of it went to the program's
// function that asked, and libbacktrace's own functions (statically linked, with C
// names) were listed as the program's code.
TEST_F(Sampling, TheRuntimesSymbolizingIsNotChargedToTheProgram) {
  const probe_result run = run_sample_probe("PERF_SAMPLE_HZ=1000", "describe-stacks");
  ASSERT_EQ(run.status, 0) << run.output;
  const probe_summary s = parse_summary(run.output);
  ASSERT_GT(s.cpu_ms, 300) << run.output;
  EXPECT_LT(static_cast<double>(s.total), 0.05 * s.cpu_ms) << run.output;
}

// The pprof file is read by pprof itself (Debian's golang-go; scripts/setup.sh
// installs it): its top entry is the hot function, with its share of the CPU time.
TEST_F(Sampling, GoToolPprofReadsTheProfileAndNamesTheHotFunction) {
  const std::string path = (dir / "profile.pb.gz").string();
  const probe_result run = run_sample_probe("PERF_SAMPLE_HZ=1000 PERF_PROFILE=" + path, "ratio");
  ASSERT_EQ(run.status, 0) << run.output;
  const probe_result pprof = go_tool_pprof("-top -nodecount=2 " + path, dir);
  ASSERT_EQ(pprof.status, 0) << pprof.output;
  // "      flat  flat%   sum%        cum   cum%" then the hottest entry first.
  const size_t header = pprof.output.find("flat  flat%");
  ASSERT_NE(header, std::string::npos) << pprof.output;
  std::istringstream top(pprof.output.substr(pprof.output.find('\n', header) + 1));
  std::string flat, flat_percent, sum, cum, cum_percent, name;
  top >> flat >> flat_percent >> sum >> cum >> cum_percent >> name;
  EXPECT_EQ(name, "::three_quarters") << pprof.output;
  EXPECT_NEAR(std::stod(flat_percent), 75, 3) << pprof.output;
  EXPECT_NE(pprof.output.find("Type: cpu\n"), std::string::npos) << pprof.output;
}

// The folded stacks are read by speedscope's own importer (npm's speedscope, which
// scripts/setup.sh installs): it sees every sample, and the hot function's share.
TEST_F(Sampling, SpeedscopeLoadsTheFoldedStacks) {
  const std::string path = (dir / "profile.folded").string();
  const probe_result run = run_sample_probe("PERF_SAMPLE_HZ=1000 PERF_PROFILE=" + path, "ratio");
  ASSERT_EQ(run.status, 0) << run.output;
  uint64_t written = 0;
  std::istringstream lines(read_file(path));
  for (std::string line; std::getline(lines, line);) written += std::stoull(line.substr(line.rfind(' ') + 1));
  const probe_result loaded = run_command("node " PERF_SPEEDSCOPE_IMPORT " " PERF_SPEEDSCOPE_BUNDLE " " + path);
  ASSERT_EQ(loaded.status, 0) << loaded.output;
  std::istringstream seen(loaded.output);
  std::string word, name;
  uint64_t total = 0, hottest = 0;
  seen >> word >> total;
  EXPECT_EQ(word, "total") << loaded.output;
  EXPECT_EQ(total, written) << loaded.output;
  seen >> word >> hottest >> std::ws;
  std::getline(seen, name);
  EXPECT_EQ(name, "(anonymous namespace)::three_quarters(unsigned long)") << loaded.output;
  EXPECT_NEAR(static_cast<double>(hottest) / static_cast<double>(total), 0.75, 0.03) << loaded.output;
}

#endif  // !defined(__SANITIZE_THREAD__)

}  // namespace
}  // namespace perf::testing
