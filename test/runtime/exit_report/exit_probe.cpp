// A program measured with PERF_MEASURE whose exit report the exit-report tests read.
//   exit_probe            3 parse, 4 worker_step on a thread that exits, 1 call from a static destructor
//   exit_probe exit       2 parse, then exit() from inside a measured function
//   exit_probe fork       1 parse; a forked child makes 2 more and exits on its own
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <thread>

#include "perf/perf.hpp"

namespace {

void parse() { PERF_MEASURE("parse"); }
void worker_step() { PERF_MEASURE("worker_step"); }
void at_static_destruction() { PERF_MEASURE("at_static_destruction"); }
[[noreturn]] void exits_midway() {
  PERF_MEASURE("exits_midway");
  std::exit(0);
}

struct destroyed_at_exit {
  ~destroyed_at_exit() { at_static_destruction(); }
} const program_static;

}  // namespace

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  if (std::strcmp(mode, "exit") == 0) {
    parse();
    parse();
    exits_midway();
  }
  if (std::strcmp(mode, "fork") == 0) {
    parse();
    const pid_t child = fork();
    if (child == 0) {
      parse();
      parse();
      return 0;
    }
    int status = 0;
    waitpid(child, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  }
  for (int i = 0; i < 3; ++i) parse();
  std::thread([] {
    for (int i = 0; i < 4; ++i) worker_step();
  }).join();
  return 0;
}
