// A service whose threads keep starting and exiting while it exits, for the test
// that the exit report finishes whatever other threads do.
//   exit_churn_probe  8 busy detached threads making measured calls, and a spawner
//                     starting a short detached thread (3 measured calls) every
//                     100 µs; after 200 ms main prints "main returns" on stderr and
//                     returns while they all go on.
#include <pthread.h>

#include <cstdio>
#include <thread>

#include "perf/perf.hpp"

namespace {

void busy() { PERF_MEASURE("busy"); }
void short_job() { PERF_MEASURE("short_job"); }

// Starts `run` on a thread created detached: no moment where it is neither joined
// nor detached when the process exits (TSan counts such a thread as leaked). One
// that cannot be created (too many threads at once) is not.
void start_detached(void* (*run)(void*)) {
  pthread_attr_t detached;
  pthread_attr_init(&detached);
  pthread_attr_setdetachstate(&detached, PTHREAD_CREATE_DETACHED);
  pthread_t thread;
  pthread_create(&thread, &detached, run, nullptr);
  pthread_attr_destroy(&detached);
}

// Only what lives as long as the process: the threads run on while the exit
// report is written and static objects are destroyed.
void* spawn_forever(void*) {
  for (;;) {
    start_detached([](void*) -> void* {
      for (int i = 0; i < 3; ++i) short_job();
      return nullptr;
    });
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}

}  // namespace

int main() {
  for (int i = 0; i < 8; ++i)
    start_detached([](void*) -> void* {
      for (;;) busy();
    });
  start_detached(spawn_forever);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  std::fputs("main returns\n", stderr);
  return 0;
}
