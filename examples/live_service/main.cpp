// A small service, measured by perf-instrument through its [[perf::measure]]
// attributes and watched while it runs: two workers handle requests until REQUESTS
// are done (0: forever), then the service stays up, idle, until SIGTERM or SIGINT.
// Run it with PERF_LISTEN=127.0.0.1:9464 and scrape http://127.0.0.1:9464/metrics.
// Usage: live_service [REQUESTS]
#include <signal.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "work.hpp"

namespace {

std::atomic<uint64_t> next_request{0};
std::atomic<uint64_t> handled{0};
std::atomic<bool> stopping{false};

void worker(uint64_t limit) {
  uint64_t sum = 0;
  while (!stopping.load(std::memory_order_relaxed)) {
    const uint64_t id = next_request.fetch_add(1);
    if (limit != 0 && id >= limit) break;
    sum += service::handle_request(id);
    handled.fetch_add(1);
  }
  if (sum == 42) std::puts("");  // keeps the work from being optimised away
}

}  // namespace

int main(int argc, char** argv) {
  const uint64_t limit = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 0;
  // SIGTERM and SIGINT are taken by sigwait below, on this thread only.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  std::vector<std::thread> workers;
  for (int i = 0; i < 2; ++i) workers.emplace_back(worker, limit);
  std::thread announcer;
  if (limit != 0)
    announcer = std::thread([&workers] {
      for (std::thread& t : workers) t.join();
      std::printf("handled %llu requests\n", static_cast<unsigned long long>(handled.load()));
      std::fflush(stdout);
    });

  int signal = 0;
  sigwait(&stop_signals, &signal);
  stopping = true;
  if (announcer.joinable()) announcer.join();
  else
    for (std::thread& t : workers) t.join();
  std::printf("stopped by signal %d after %llu requests\n", signal, static_cast<unsigned long long>(handled.load()));
  return 0;
}
