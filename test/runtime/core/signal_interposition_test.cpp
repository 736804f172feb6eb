// The runtime's signals never reach the program: a daemon waiting on every signal
// gets its SIGTERM and never the sampler's signal, from either source (timers or
// perf_event); a program's own handler on that signal stops sampling instead of
// being called by it; a crash reporter installed
// later runs behind perf's crash record, as it was installed.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "probe_runner.hpp"

namespace {

using perf::testing::probe_result;
using perf::testing::run_probe_program;

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool sanitized = true;
#else
constexpr bool sanitized = false;
#endif

// The probe with `args`, run by `launcher` (valgrind) if not empty.
probe_result run_signal_probe(const std::string& environment, const std::string& args,
                              const std::string& launcher = "") {
  return run_probe_program("timeout 300 " + launcher + PERF_SIGNAL_PROBE, "PERF_REPORT=off " + environment, args);
}

// What sent the sampler's signals in `run`: "perf_event" or "timer" (the probe's
// "source" line).
std::string source_of(const probe_result& run) {
  const size_t at = run.output.find("source ");
  if (at == std::string::npos) return "";
  return run.output.substr(at + 7, run.output.find('\n', at) - at - 7);
}

// The output of a run on the perf_event source; skips the test where the kernel
// refuses the event (seccomp, perf_event_paranoid 3) and the timers sampled.
#define PERF_SKIP_UNLESS_EVENT_SOURCE(run) \
  if (source_of(run) == "timer") GTEST_SKIP() << "perf_event_open is refused here: the timers sampled"

// The daemon's wait, sampled at 1 kHz with `settings`: SIGTERM comes, the sampler's
// signal never does. Returns the run.
probe_result expect_sigterm_only(const std::string& settings, const std::string& how) {
  const probe_result run = run_signal_probe("PERF_SAMPLE_HZ=1000 " + settings, "wait " + how);
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("sigterm after"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("returned"), std::string::npos) << run.output;
  return run;
}

TEST(SignalInterposition, SigwaitOnEverySignalGetsSigtermAndNeverTheSamplersSignalCpuClock) {
  EXPECT_EQ(source_of(expect_sigterm_only("PERF_SAMPLE_CLOCK=cpu PERF_SAMPLE_SOURCE=timer", "sigwait")), "timer");
}
TEST(SignalInterposition, SigwaitOnEverySignalGetsSigtermAndNeverTheSamplersSignalWallClock) {
  EXPECT_EQ(source_of(expect_sigterm_only("PERF_SAMPLE_CLOCK=wall", "sigwait")), "timer");
}
// The default source: a task-clock event per thread, disabled while its thread
// blocks the signal.
TEST(SignalInterposition, SigwaitOnEverySignalGetsSigtermAndNeverTheSamplersSignalEventSource) {
  const probe_result run = expect_sigterm_only("PERF_SAMPLE_CLOCK=cpu", "sigwait");
  PERF_SKIP_UNLESS_EVENT_SOURCE(run);
  EXPECT_EQ(source_of(run), "perf_event") << run.output;
}
TEST(SignalInterposition, SigwaitinfoGetsSigtermAndNeverTheSamplersSignal) {
  expect_sigterm_only("PERF_SAMPLE_CLOCK=cpu", "sigwaitinfo");
  expect_sigterm_only("PERF_SAMPLE_CLOCK=wall", "sigwaitinfo");
}
TEST(SignalInterposition, SigtimedwaitGetsSigtermAndNeverTheSamplersSignal) {
  expect_sigterm_only("PERF_SAMPLE_CLOCK=cpu", "sigtimedwait");
  expect_sigterm_only("PERF_SAMPLE_CLOCK=wall", "sigtimedwait");
}
TEST(SignalInterposition, SignalfdReadsSigtermAndNeverTheSamplersSignal) {
  expect_sigterm_only("PERF_SAMPLE_CLOCK=cpu", "signalfd");
  expect_sigterm_only("PERF_SAMPLE_CLOCK=wall", "signalfd");
}

// A program's own handler on SIGURG, the sampler's signal, with `settings`: called
// once, by the program's own raise(), never by a sample; sampling stops and the
// report says why. Returns the run.
probe_result expect_own_handler_stops_sampling(const std::string& settings) {
  const probe_result run = run_signal_probe("PERF_SAMPLE_HZ=1000 " + settings, "own-handler");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("previous default\n"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("handler 1 0\n"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("stopped the program installed its own handler for SIGURG, the sampler's signal "
                            "(PERF_SAMPLE_SIGNAL chooses another)\n"),
            std::string::npos)
      << run.output;
  return run;
}

TEST(SignalInterposition, AProgramsOwnHandlerOnTheSamplersSignalStopsSamplingAndIsNeverCalledByASample) {
  EXPECT_EQ(source_of(expect_own_handler_stops_sampling("PERF_SAMPLE_SOURCE=timer")), "timer");
}
// The events are closed at once: none of their signals reaches the program's handler.
TEST(SignalInterposition, AProgramsOwnHandlerStopsTheEventSourceAndIsNeverCalledByASample) {
  const probe_result run = expect_own_handler_stops_sampling("");
  PERF_SKIP_UNLESS_EVENT_SOURCE(run);
  EXPECT_EQ(source_of(run), "perf_event") << run.output;
}

// A thread that blocks the sampler's signal, or starts with it blocked, has its
// source stopped: no signal of the sampler's waits on it; unblocked, it is sampled
// again. `source` is what PERF_SAMPLE_SOURCE asks for.
probe_result expect_nothing_pending_while_blocked(const std::string& source) {
  const probe_result run = run_signal_probe("PERF_SAMPLE_HZ=1000 PERF_SAMPLE_SOURCE=" + source, "blocked");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("pending main no\npending thread no\nsamples after unblocking yes\n"), std::string::npos)
      << run.output;
  return run;
}

TEST(SignalInterposition, AThreadBlockingTheSamplersSignalHasNoTimerSignalPending) {
  EXPECT_EQ(source_of(expect_nothing_pending_while_blocked("timer")), "timer");
}
TEST(SignalInterposition, AThreadBlockingTheSamplersSignalHasNoEventSignalPending) {
  const probe_result run = expect_nothing_pending_while_blocked("perf_event");
  PERF_SKIP_UNLESS_EVENT_SOURCE(run);
  EXPECT_EQ(source_of(run), "perf_event") << run.output;
}

TEST(SignalInterposition, TheSampleSignalVariableChoosesTheSignal) {
  const probe_result run = run_signal_probe("PERF_SAMPLE_HZ=1000 PERF_SAMPLE_SIGNAL=SIGRTMAX-2", "own-handler");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("handler 1 0\n"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("stopped \n"), std::string::npos) << run.output;
  // A real-time signal is sent by the timers only: an event's would queue, one per
  // period, while a thread blocks it.
  EXPECT_EQ(source_of(run), "timer") << run.output;
}

TEST(SignalInterposition, ABadSampleSignalIsNamedAndTheDefaultUsed) {
  const probe_result run = run_signal_probe("PERF_SAMPLE_HZ=1000 PERF_SAMPLE_SIGNAL=SIGKILL", "own-handler");
  EXPECT_NE(run.output.find("perf: PERF_SAMPLE_SIGNAL='SIGKILL' is not one of SIGURG, SIGPROF, SIGVTALRM, SIGUSR1, "
                            "SIGUSR2, SIGRTMIN+n, SIGRTMAX-n; using the first free of SIGURG, SIGPROF and the "
                            "real-time signals\n"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("stopped the program installed its own handler for SIGURG"), std::string::npos)
      << run.output;
}

// How a program killed by `signal` ends, as the shell that ran it reports it.
void expect_killed_by(const probe_result& run, int signal) {
  if (sanitized) EXPECT_NE(run.status, 0) << run.output;
  else
    EXPECT_TRUE(WIFEXITED(run.status) && WEXITSTATUS(run.status) == 128 + signal) << "status " << run.status << "\n"
                                                                                  << run.output;
}

// The program's handler, then perf's crash record as the signal meets its default
// action, then death by the same signal.
void expect_record_then_program(const std::string& args, int signal, const std::string& name) {
  const probe_result run = run_signal_probe("PERF_SAMPLE_HZ=1000", args);
  expect_killed_by(run, signal);
  EXPECT_NE(run.output.find("previous default\n"), std::string::npos) << run.output;
  const size_t record = run.output.find("written on " + name + ": the last events (at most 64 each) of 1 thread");
  const size_t program = run.output.find("program handler " + name + "\n");
  ASSERT_NE(record, std::string::npos) << run.output;
  ASSERT_NE(program, std::string::npos) << run.output;
  EXPECT_LT(program, record) << run.output;
  EXPECT_EQ(run.output.find("program handler", program + 1), std::string::npos) << "called twice:\n" << run.output;
}

TEST(SignalInterposition, ACrashReporterInstalledLaterRunsAndItsReRaiseWritesPerfsRecordAndKills) {
  expect_record_then_program("crash abort", SIGABRT, "SIGABRT");
}
TEST(SignalInterposition, ACrashReporterOnSegvRunsAndItsReRaiseWritesPerfsRecordAndKills) {
  if (sanitized) GTEST_SKIP() << "the sanitizers handle SIGSEGV themselves";
  expect_record_then_program("crash segv", SIGSEGV, "SIGSEGV");
}
TEST(SignalInterposition, AResetHandCrashHandlerRunsOnceAndTheRepeatedFaultKills) {
  if (sanitized) GTEST_SKIP() << "the sanitizers handle SIGSEGV themselves";
  expect_record_then_program("crash-resethand segv", SIGSEGV, "SIGSEGV");
}

// A program that recovers from its own faults (a garbage collector, a WebAssembly
// runtime) goes on, with no crash record.
TEST(SignalInterposition, AProgramThatRecoversFromAFaultGoesOnWithoutACrashRecord) {
  const probe_result run = run_signal_probe("PERF_SAMPLE_HZ=1000", "recover");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("recovered 42\n"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("written on"), std::string::npos) << run.output;
}

TEST(SignalInterposition, AHandlerInstalledBehindSigactionsBackIsNamedAtExit) {
  const probe_result run = run_signal_probe("", "raw-handler");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("perf: the program replaced the crash handler for SIGFPE without sigaction(); the crash "
                            "record was given up to its handler\n"),
            std::string::npos)
      << run.output;
}

// valgrind's memcheck finds nothing wrong in the sampler's work but libunwind's check
// that an address is mapped (it write()s the byte to a pipe, defined or not), which
// docs/sampler.md's suppression names. (Not with a sanitizer: valgrind cannot run those.)
TEST(SignalInterposition, AnInstrumentedProgramSampledAtOneKilohertzRunsCleanUnderValgrind) {
  if (sanitized) GTEST_SKIP() << "valgrind does not run sanitized programs";
  const std::string suppressions =
      (std::filesystem::temp_directory_path() / ("perf_libunwind_" + std::to_string(getpid()) + ".supp")).string();
  std::ofstream(suppressions)
      << "{\n   libunwind-validates-an-address-by-writing-it\n   Memcheck:Param\n   write(buf)\n"
         "   ...\n   obj:*/libunwind.so.*\n}\n"
         "{\n   libunwind-validates-an-address-by-writing-it-seen-from-a-handler\n   Memcheck:Param\n   write(buf)\n"
         "   fun:syscall\n}\n";
  const probe_result run = run_signal_probe("PERF_SAMPLE_HZ=1000 PERF_REPORT=stderr", "burn",
                                            PERF_VALGRIND " --error-exitcode=9 --suppressions=" + suppressions + " ");
  std::filesystem::remove(suppressions);
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("ERROR SUMMARY: 0 errors from 0 contexts"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("samples: "), std::string::npos) << run.output;
}

}  // namespace
