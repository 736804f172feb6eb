// The USDT probes perf:enter and perf:exit (perf/detail/usdt.hpp; docs/timeline.md,
// "USDT probes"): a real tracer, bpftrace, attached to a running program counts exactly the
// calls it made while attached; and while a tracer is attached (its semaphore raised,
// as the kernel raises it), a sampled site is timed on every call, so that every call
// passes the probes.
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "perf/measure.hpp"
#include "probe_runner.hpp"
#include "snapshot_lookup.hpp"

extern char** environ;

namespace perf::runtime {
namespace {

using perf::testing::stats_of;

__attribute__((noinline)) void usdt_sampled_leaf() {
  PERF_MEASURE_NO_TICKS("usdt_sampled_leaf");
  __asm__ __volatile__("" ::: "memory");
}

// What the kernel does for a tracer that attaches to perf:exit, and undoes after.
class raised_exit_semaphore {
 public:
  raised_exit_semaphore() { semaphore() = static_cast<unsigned short>(semaphore() + 1); }
  ~raised_exit_semaphore() { semaphore() = static_cast<unsigned short>(semaphore() - 1); }
  raised_exit_semaphore(const raised_exit_semaphore&) = delete;
  raised_exit_semaphore& operator=(const raised_exit_semaphore&) = delete;

 private:
  static volatile unsigned short& semaphore() {
    return *const_cast<volatile unsigned short*>(detail::usdt_exit_semaphore);
  }
};

TEST(Usdt, WhileATracerIsAttachedEveryCallOfASampledSiteIsTimed) {
  for (int i = 0; i < 200'000; ++i) usdt_sampled_leaf();
  const function_stats sampled = stats_of("usdt_sampled_leaf");
  ASSERT_LT(sampled.timed_calls, sampled.calls / 4) << "a probe-dominated leaf is sampled before";
  function_stats attached_start, attached_end;
  {
    const raised_exit_semaphore attached;
    // The countdown drawn before attaching runs out first: its mean is at most
    // max_period (1024) calls, so 100,000 calls leave it unspent with a chance of e^-97.
    for (int i = 0; i < 100'000; ++i) usdt_sampled_leaf();
    attached_start = stats_of("usdt_sampled_leaf");
    for (int i = 0; i < 10'000; ++i) usdt_sampled_leaf();
    attached_end = stats_of("usdt_sampled_leaf");
  }
  EXPECT_EQ(attached_end.calls - attached_start.calls, 10'000u);
  EXPECT_EQ(attached_end.timed_calls - attached_start.timed_calls, 10'000u) << "every call timed while attached";
  // Detached, the site is sampled again from its next draw on.
  for (int i = 0; i < 200'000; ++i) usdt_sampled_leaf();
  const function_stats detached = stats_of("usdt_sampled_leaf");
  EXPECT_EQ(detached.calls - attached_end.calls, 200'000u);
  EXPECT_LT(detached.timed_calls - attached_end.timed_calls, 200'000u / 4) << "sampled again once detached";
}

// A child process with its stdin and stdout on pipes.
struct child {
  pid_t pid = -1;
  int in = -1;   // its stdin
  int out = -1;  // its stdout (and stderr)
  std::string output;

  explicit child(const std::vector<std::string>& argv) {
    int to[2], from[2];
    if (pipe(to) != 0 || pipe(from) != 0) return;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, to[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, from[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, from[1], STDERR_FILENO);
    posix_spawn_file_actions_addclose(&actions, to[1]);
    posix_spawn_file_actions_addclose(&actions, from[0]);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    if (posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ) != 0) pid = -1;
    posix_spawn_file_actions_destroy(&actions);
    close(to[0]);
    close(from[1]);
    in = to[1];
    out = from[0];
  }
  ~child() {
    if (in >= 0) close(in);
    if (pid > 0) {
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
    }
    if (out >= 0) close(out);
  }
  child(const child&) = delete;
  child& operator=(const child&) = delete;

  // Reads its output until it holds `text` (true) or `seconds` pass or it ends (false).
  bool wait_for(const std::string& text, int seconds) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (output.find(text) == std::string::npos) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
      pollfd p = {out, POLLIN, 0};
      if (left <= 0 || poll(&p, 1, static_cast<int>(left)) <= 0) return false;
      char buffer[4096];
      const ssize_t n = read(out, buffer, sizeof buffer);
      if (n <= 0) return false;
      output.append(buffer, static_cast<size_t>(n));
    }
    return true;
  }
  // Its exit status after it ended, its output read to the end.
  int finish() {
    while (wait_for("\x01never\x01", 60)) {}
    int status = 0;
    waitpid(pid, &status, 0);
    pid = -1;
    return status;
  }
  void say(const std::string& line) const { ASSERT_EQ(write(in, line.data(), line.size()), ssize_t(line.size())); }
};

TEST(Usdt, BpftraceCountsExactlyTheCallsMadeWhileItIsAttached) {
  const perf::testing::probe_result check = perf::testing::run_probe_program("bpftrace", "", "-e 'BEGIN { exit(); }'");
  if (check.status != 0)
    GTEST_SKIP() << "bpftrace cannot run a BPF program here (bpftrace -e 'BEGIN { exit(); }' exited with status "
                 << (WIFEXITED(check.status) ? WEXITSTATUS(check.status) : -1) << "): " << check.output;
  constexpr long calls = 5000;
  child program({PERF_USDT_TARGET, std::to_string(calls)});
  ASSERT_TRUE(program.wait_for("ready\n", 60)) << program.output;
  const std::string library = PERF_USDT_LIBRARY;
  const std::string script =
      "usdt:" + library + ":perf:exit /str(uptr(arg1)) == \"usdt_marker\" && @marked == 0/ {" +
      " @marked = 1; printf(\"attached\\n\"); }" + " usdt:" + library +
      ":perf:exit /str(uptr(arg1)) == \"usdt_traced\"/ { @exits = count(); @least_ns = min(arg3); }" +
      " usdt:" + library + ":perf:enter /str(uptr(arg1)) == \"usdt_traced\"/ { @enters = count(); }";
  child tracer({"bpftrace", "-B", "line", "-p", std::to_string(program.pid), "-e", script});
  ASSERT_TRUE(tracer.wait_for("attached\n", 60)) << tracer.output;
  program.say("go\n");
  ASSERT_TRUE(program.wait_for("done\n", 60)) << program.output;
  kill(tracer.pid, SIGINT);
  const int status = tracer.finish();
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << tracer.output;
  EXPECT_NE(tracer.output.find("@exits: 5000\n"), std::string::npos) << tracer.output;
  EXPECT_NE(tracer.output.find("@enters: 5000\n"), std::string::npos) << tracer.output;
  // Each call spins about a microsecond: its duration argument is in nanoseconds, not 0.
  const size_t least = tracer.output.find("@least_ns: ");
  ASSERT_NE(least, std::string::npos) << tracer.output;
  EXPECT_GT(std::stoull(tracer.output.substr(least + 11)), 0u) << tracer.output;
}

}  // namespace
}  // namespace perf::runtime
