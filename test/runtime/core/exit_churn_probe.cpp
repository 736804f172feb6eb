// A service whose threads keep starting and exiting while it exits, for the test
// that the exit report finishes whatever other threads do.
//   exit_churn_probe  8 busy detached threads making measured calls, and a spawner
//                     starting a short detached thread (3 measured calls) every
//                     100 µs; after 200 ms main prints "main returns" on stderr and
//                     returns while they all go on.
#include <cstdio>
#include <thread>

#include "perf/perf.hpp"

namespace {

void busy() { PERF_MEASURE("busy"); }
void short_job() { PERF_MEASURE("short_job"); }

// Only what lives as long as the process: the threads run on while the exit
// report is written and static objects are destroyed.
void spawn_forever() {
  for (;;) {
    try {
      std::thread([] {
        for (int i = 0; i < 3; ++i) short_job();
      }).detach();
    } catch (...) {  // too many threads at once: the next try
    }
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}

}  // namespace

int main() {
  for (int i = 0; i < 8; ++i)
    std::thread([] {
      for (;;) busy();
    }).detach();
  std::thread(spawn_forever).detach();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  std::fputs("main returns\n", stderr);
  return 0;
}
