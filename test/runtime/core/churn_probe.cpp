// A service with a thread per job, for the thread-churn tests.
//   churn_probe JOBS [TEXT]  3 calls of `setup` on the main thread, then JOBS threads
//                      named "worker", one after the other, each making 10 calls of
//                      `job` (20 tick events); then, on stderr, "rss growth: N KiB":
//                      the resident memory after the last job less that after the
//                      first; and the text report written to TEXT (perf::write_report).
#include <pthread.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <thread>

#include "perf/perf.hpp"

namespace {

void setup() { PERF_MEASURE("setup"); }
void job() { PERF_MEASURE("job"); }

long resident_kib() {
  long pages = 0, resident = 0;
  FILE* statm = std::fopen("/proc/self/statm", "r");
  if (statm == nullptr || std::fscanf(statm, "%ld %ld", &pages, &resident) != 2) std::abort();
  std::fclose(statm);
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

void run_job() {
  std::thread([] {
    pthread_setname_np(pthread_self(), "worker");
    for (int i = 0; i < 10; ++i) job();
  }).join();
}

}  // namespace

int main(int argc, char** argv) {
  const long jobs = argc > 1 ? std::atol(argv[1]) : 0;
  for (int i = 0; i < 3; ++i) setup();
  if (jobs < 1) return 1;
  run_job();
  const long after_first = resident_kib();
  for (long j = 1; j < jobs; ++j) run_job();
  std::fprintf(stderr, "rss growth: %ld KiB\n", resident_kib() - after_first);
  return argc > 2 && !perf::write_report(argv[2]) ? 1 : 0;
}
