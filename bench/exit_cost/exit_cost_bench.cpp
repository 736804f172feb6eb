// What a short measured program pays at exit (docs/performance.md, "Exit cost"): the
// ~1 ms program (short_program.cpp) run with the default settings against the same
// binary with PERF_SAMPLE_HZ=0, interleaved, 30 runs each: the medians of wall time
// and of maximum resident memory (wait4's ru_maxrss), and their differences against
// the targets (<= 5 ms, <= 2 MB). Each run's report goes to /dev/null.
//   exit_cost_bench [RUNS]
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

extern char** environ;

namespace {

struct run_cost {
  double wall_ms;
  double max_rss_mb;
};

// One run of the short program with `setting` ("PERF_SAMPLE_HZ=0", or "" for the
// defaults) added to the environment, its stderr (the report) sent to /dev/null.
run_cost run_once(const std::string& setting) {
  std::vector<std::string> variables;
  for (char** v = environ; *v != nullptr; ++v)
    if (std::string(*v).rfind("PERF_", 0) != 0) variables.emplace_back(*v);
  if (!setting.empty()) variables.push_back(setting);
  std::vector<char*> env;
  for (std::string& v : variables) env.push_back(v.data());
  env.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  char program[] = PERF_SHORT_PROGRAM;
  char* argv[] = {program, nullptr};
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  if (posix_spawn(&pid, program, &actions, nullptr, argv, env.data()) != 0) {
    std::perror("posix_spawn");
    std::exit(2);
  }
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  posix_spawn_file_actions_destroy(&actions);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "the short program failed (status %d)\n", status);
    std::exit(2);
  }
  return {wall_ms, static_cast<double>(usage.ru_maxrss) / 1024.0};
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 30;
  std::vector<double> wall_default, wall_off, rss_default, rss_off;
  for (int i = 0; i < runs; ++i) {
    // Interleaved, so that a change in the machine's load meets both alike.
    const run_cost with_defaults = run_once("");
    const run_cost sampling_off = run_once("PERF_SAMPLE_HZ=0");
    wall_default.push_back(with_defaults.wall_ms), rss_default.push_back(with_defaults.max_rss_mb);
    wall_off.push_back(sampling_off.wall_ms), rss_off.push_back(sampling_off.max_rss_mb);
  }
  const double wall = median(wall_default) - median(wall_off), rss = median(rss_default) - median(rss_off);
  std::printf(
      "a ~1 ms measured program, %d runs each, medians: default settings %.1f ms, %.1f MB max RSS; "
      "PERF_SAMPLE_HZ=0 %.1f ms, %.1f MB\n",
      runs, median(wall_default), median(rss_default), median(wall_off), median(rss_off));
  std::printf("exit cost of the defaults: %+.1f ms (target <= 5: %s), %+.1f MB max RSS (target <= 2: %s)\n", wall,
              wall <= 5 ? "met" : "MISSED", rss, rss <= 2 ? "met" : "MISSED");
  return 0;
}
