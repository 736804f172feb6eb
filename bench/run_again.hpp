// A bench that shows its figures under two settings of a PERF_* variable in one
// command: it runs itself again with the other value.
#ifndef PERF_BENCH_RUN_AGAIN_HPP
#define PERF_BENCH_RUN_AGAIN_HPP

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace bench {

// Unless `variable` is set, prints a heading and runs this program again (argv) with
// `variable`=`value`, waits for it and returns its exit status; returns 0 when it is
// set (this is the second run, or the user chose). For the end of main().
inline int run_again_with(char** argv, const char* variable, const char* value) {
  if (std::getenv(variable) != nullptr) return 0;
  std::printf("\nthe same with %s=%s:\n", variable, value);
  std::fflush(stdout);
  const pid_t child = fork();
  if (child == 0) {
    setenv(variable, value, 1);
    execv("/proc/self/exe", argv);
    _exit(127);
  }
  int status = 0;
  waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

}  // namespace bench

#endif  // PERF_BENCH_RUN_AGAIN_HPP
