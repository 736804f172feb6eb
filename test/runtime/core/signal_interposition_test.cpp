// The runtime's signals never reach the program: a daemon waiting on every signal
// gets its SIGTERM and never the sampler's signal; a program's own handler on that
// signal stops sampling instead of being called by it; a crash reporter installed
// later runs behind perf's crash record, as it was installed.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

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

// The daemon's wait, sampled at 1 kHz of `clock`: SIGTERM comes, the sampler's
// signal never does.
void expect_sigterm_only(const std::string& clock, const std::string& how) {
  const probe_result run = run_signal_probe("PERF_SAMPLE_HZ=1000 PERF_SAMPLE_CLOCK=" + clock, "wait " + how);
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("sigterm after"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("returned"), std::string::npos) << run.output;
}

TEST(SignalInterposition, SigwaitOnEverySignalGetsSigtermAndNeverTheSamplersSignalCpuClock) {
  expect_sigterm_only("cpu", "sigwait");
}
TEST(SignalInterposition, SigwaitOnEverySignalGetsSigtermAndNeverTheSamplersSignalWallClock) {
  expect_sigterm_only("wall", "sigwait");
}
TEST(SignalInterposition, SigwaitinfoGetsSigtermAndNeverTheSamplersSignal) {
  expect_sigterm_only("cpu", "sigwaitinfo");
  expect_sigterm_only("wall", "sigwaitinfo");
}
TEST(SignalInterposition, SigtimedwaitGetsSigtermAndNeverTheSamplersSignal) {
  expect_sigterm_only("cpu", "sigtimedwait");
  expect_sigterm_only("wall", "sigtimedwait");
}
TEST(SignalInterposition, SignalfdReadsSigtermAndNeverTheSamplersSignal) {
  expect_sigterm_only("cpu", "signalfd");
  expect_sigterm_only("wall", "signalfd");
}

TEST(SignalInterposition, AProgramsOwnHandlerOnTheSamplersSignalStopsSamplingAndIsNeverCalledByASample) {
  const probe_result run = run_signal_probe("PERF_SAMPLE_HZ=1000", "own-handler");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("previous default\n"), std::string::npos) << run.output;
  // Called once, by the program's own raise(); never by a sample.
  EXPECT_NE(run.output.find("handler 1 0\n"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("stopped the program installed its own handler for SIGURG, the sampler's signal "
                            "(PERF_SAMPLE_SIGNAL chooses another)\n"),
            std::string::npos)
      << run.output;
}

TEST(SignalInterposition, TheSampleSignalVariableChoosesTheSignal) {
  const probe_result run = run_signal_probe("PERF_SAMPLE_HZ=1000 PERF_SAMPLE_SIGNAL=SIGRTMAX-2", "own-handler");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("handler 1 0\n"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("stopped \n"), std::string::npos) << run.output;
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
  if (sanitized)
    EXPECT_NE(run.status, 0) << run.output;
  else
    EXPECT_TRUE(WIFEXITED(run.status) && WEXITSTATUS(run.status) == 128 + signal)
        << "status " << run.status << "\n" << run.output;
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

// valgrind's memcheck finds nothing wrong in the sampler's work: the stack walk reads
// through the kernel under it. (Not with a sanitizer: valgrind cannot run those.)
TEST(SignalInterposition, AnInstrumentedProgramSampledAtOneKilohertzRunsCleanUnderValgrind) {
  if (sanitized) GTEST_SKIP() << "valgrind does not run sanitized programs";
  const probe_result run = run_signal_probe("PERF_SAMPLE_HZ=1000 PERF_REPORT=stderr",
                                            "burn", PERF_VALGRIND " --error-exitcode=9 ");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("ERROR SUMMARY: 0 errors from 0 contexts"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("samples: "), std::string::npos) << run.output;
}

}  // namespace
