// A program with ticks and measured scopes on several threads, for the tick-log
// output tests. `n` values and labels tell the events apart:
//   tick_probe           main: outer { step, step, step } with ticks 1..3 "step";
//                        3 threads named worker-1..3, each 4 x task { tick(i, "item") };
//                        a tick with an 80-byte label (cut to 63)
//   tick_probe wrap      100 ticks 0..99 on the main thread
//   tick_probe wrap-spans
//                        outer { middle { 100 ticks 0..99 } }, then step(1)
//   tick_probe segv      ticks 1..10 "before", then a write to a read-only page inside scope `crashing`
//   tick_probe segv-threads
//                        a thread ticks 1..3 "finished" and exits; another ticks 1..3 "waiting" and
//                        blocks; then main crashes as in `segv`
//   tick_probe segv-named
//                        a thread named rk-worker-1 ticks 1..3 "before" and crashes as in `segv`
//   tick_probe segv-trace
//                        threads named crash-1 and crash-2 each call task(1..3), then block inside scope
//                        `blocked`; then a thread named crash-3 calls task(1..3), then outer { middle { crashing:
//                        a write to a read-only page, as in `segv` } }
//   tick_probe overflow  ticks 1..3 "before", then a recursion without end
//   tick_probe churn     70 threads, one after the other, each ticks 1..3 and exits
//   tick_probe abort     ticks 1..3, then abort()
//   tick_probe dump PATH ticks 1..2, perf::dump_ticks(PATH), tick 3
//   tick_probe fork-abort
//                        ticks 1..3 "parent"; a forked child ticks 1..3 "child", calls step(1..3)
//                        and aborts; the parent waits for it and exits
//   tick_probe stream    4 threads named stream-1..4, each 20,000 x outer_call { inner_call, inner_call }:
//                        120,000 events a thread, more than a default ring holds
//   tick_probe stream-segv
//                        as `stream`, then main crashes as in `segv` (the crash trace's cost, docs/timeline.md)
//   tick_probe stall     3 threads named worker-1..3 call work() (5 us, then a 20 us sleep) until main has
//                        called handle(i) for i 0..29,999; handle(i) calls parse_step(), then works 2 us, or
//                        ticks i and stalls 20 ms where i % 10,000 is 9,999
//   tick_probe capture-stream [N]
//                        N (default 12) threads named burst-1..N each call inner_call() 65,000 times (130,000 events)
//                        and wait; 1.05 s later main calls stall() (a 20 ms sleep) 3 times, 200 ms apart, after each of
//                        which a thread named steady calls inner_call() 100 times every 200 us for 150 ms (at most a
//                        million events a second)
//   tick_probe stall-sampled
//                        a thread named spinner calls spin_step() (spinning_work(): 1 ms of arithmetic) until
//                        main, 100 ms in, has written the profile to /dev/null (the symbolizer readied) and
//                        twice called long_stall() (a sleep until spinner has had 30 ms
//                        of processor time, and at least 100 ms) and slept 100 ms more
//   tick_probe abort-fsize
//                        files limited to 4096 bytes (SIGXFSZ ignored), 1000 ticks "filler", abort()
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "perf/perf.hpp"

namespace {

void step(int i) {
  PERF_MEASURE("step");
  perf::tick(i, "step");
}

void task(int i) {
  PERF_MEASURE("task");
  perf::tick(i, std::string_view("item"));
}

// A real fault: a store to a read-only page (a null store would meet UBSan first).
// Says on stderr which thread stores where: "tick_probe: thread 4242 writes to 0x7f...".
[[noreturn]] void crash() {
  PERF_MEASURE("crashing");
  void* page = mmap(nullptr, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  char line[64];
  const int length = std::snprintf(line, sizeof line, "tick_probe: thread %d writes to %p\n", gettid(), page);
  if (write(STDERR_FILENO, line, static_cast<size_t>(length)) != length) std::abort();
  *static_cast<volatile int*>(page) = 1;
  std::abort();
}

volatile bool forever = true;

// Overflows the stack: every frame holds a kilobyte that the next call may not reuse.
__attribute__((noinline)) int recurse(int depth) {
  volatile char frame[1024];
  frame[0] = static_cast<char>(depth);
  if (!forever) return frame[0];
  return recurse(depth + 1) + frame[0];
}

// Crashes while one thread has exited and another is still alive.
[[noreturn]] void crash_beside_threads() {
  std::thread([] {
    for (int i = 1; i <= 3; ++i) perf::tick(i, "finished");
  }).join();
  std::promise<void> logged;
  std::thread([&logged] {
    for (int i = 1; i <= 3; ++i) perf::tick(i, "waiting");
    logged.set_value();
    for (;;) pause();
  }).detach();
  logged.get_future().wait();
  for (int i = 1; i <= 10; ++i) perf::tick(i, "before");
  crash();
}

// Blocks for good inside a measured scope, once `ready` is told so.
[[noreturn]] void blocked(std::promise<void>& ready) {
  PERF_MEASURE("blocked");
  ready.set_value();
  for (;;) pause();
}

[[noreturn]] void middle() {
  PERF_MEASURE("middle");
  crash();
}

[[noreturn]] void outer() {
  PERF_MEASURE("outer");
  middle();
}

// Crashes on the third of three measured threads while the other two are inside a scope.
[[noreturn]] void crash_on_third_thread() {
  std::promise<void> ready[2];
  for (int t = 0; t < 2; ++t)
    std::thread([t, &ready] {
      pthread_setname_np(pthread_self(), ("crash-" + std::to_string(t + 1)).c_str());
      for (int i = 1; i <= 3; ++i) task(i);
      blocked(ready[t]);
    }).detach();
  for (std::promise<void>& r : ready) r.get_future().wait();
  std::thread([] {
    pthread_setname_np(pthread_self(), "crash-3");
    for (int i = 1; i <= 3; ++i) task(i);
    outer();
  }).join();
  std::abort();
}

void inner_call() { PERF_MEASURE("inner_call"); }

void outer_call() {
  PERF_MEASURE("outer_call");
  inner_call();
  inner_call();
}

void run_stream() {
  std::vector<std::thread> threads;
  for (int t = 1; t <= 4; ++t)
    threads.emplace_back([t] {
      pthread_setname_np(pthread_self(), ("stream-" + std::to_string(t)).c_str());
      for (int i = 0; i < 20000; ++i) outer_call();
    });
  for (std::thread& t : threads) t.join();
}

void parse_step() { PERF_MEASURE("parse_step"); }

// Spins for `duration`: work that keeps the processor.
void spin(std::chrono::microseconds duration) {
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < duration) {}
}

// About 2 us of work, or a 20 ms stall after a tick with its `i`.
void handle(int i) {
  PERF_MEASURE("handle");
  parse_step();
  if (i % 10000 == 9999) {
    perf::tick(i);  // says which call stalls
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  } else {
    spin(std::chrono::microseconds(2));
  }
}

// About 5 us of work.
void work() {
  PERF_MEASURE("work");
  spin(std::chrono::microseconds(5));
}

void run_stall() {
  std::atomic<bool> done{false};
  std::vector<std::thread> workers;
  for (int w = 1; w <= 3; ++w)
    workers.emplace_back([w, &done] {
      pthread_setname_np(pthread_self(), ("worker-" + std::to_string(w)).c_str());
      // A worker between its work waits too: the machine keeps a core for the others.
      while (!done.load(std::memory_order_relaxed)) {
        work();
        std::this_thread::sleep_for(std::chrono::microseconds(20));
      }
    });
  for (int i = 0; i < 30000; ++i) handle(i);
  done = true;
  for (std::thread& t : workers) t.join();
}

void stall() {
  PERF_MEASURE("stall");
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

// 1 ms of arithmetic, the clock read every 4,096 steps: a sample of it lands here.
__attribute__((noinline)) void spinning_work() {
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(1);
  volatile uint64_t sum = 0;
  do
    for (int i = 0; i < 4096; ++i) sum = sum + static_cast<uint64_t>(i);
  while (std::chrono::steady_clock::now() < end);
}

void spin_step() {
  PERF_MEASURE("spin_step");
  spinning_work();
}

// Sleeps until `spinner` has had 30 ms of processor time, and at least 100 ms: a stall
// that a loaded machine lengthens rather than one it samples less.
void long_stall(clockid_t spinner) {
  PERF_MEASURE("long_stall");
  const auto cpu_ms = [spinner] {
    timespec now{};
    clock_gettime(spinner, &now);
    return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
  };
  const double until = cpu_ms() + 30;
  const auto at_least = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
  while (cpu_ms() < until || std::chrono::steady_clock::now() < at_least)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

// A stall of main's while a thread spins: what the sampler takes meanwhile.
void run_sampled_stall() {
  std::atomic<bool> done{false};
  std::thread spinner([&done] {
    pthread_setname_np(pthread_self(), "spinner");
    while (!done.load(std::memory_order_relaxed)) spin_step();
  });
  clockid_t spinner_clock{};
  if (pthread_getcpuclockid(spinner.native_handle(), &spinner_clock) != 0) std::abort();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  // The symbolizer ready before the stalls, as it is once a program has run for a
  // while: a capture names its samples' functions then (by address before).
  perf::write_profile("/dev/null");
  for (int i = 0; i < 2; ++i) {
    long_stall(spinner_clock);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  done = true;
  spinner.join();
}

// Rings full of events a second before each stall, which a capture with a window of
// a second reads to find the scopes open at its start, and a thread that logs
// steadily after each stall, while the capture is taken.
void run_capture_stream(int burst_threads) {
  using clock = std::chrono::steady_clock;
  std::atomic<bool> done{false};
  std::atomic<int> bursts{0};
  std::atomic<clock::rep> steady_until{0};
  std::vector<std::thread> threads;
  for (int t = 1; t <= burst_threads; ++t)
    threads.emplace_back([t, &done, &bursts] {
      pthread_setname_np(pthread_self(), ("burst-" + std::to_string(t)).c_str());
      for (int i = 0; i < 65000; ++i) inner_call();
      ++bursts;
      while (!done.load(std::memory_order_relaxed)) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
  threads.emplace_back([&done, &steady_until] {
    pthread_setname_np(pthread_self(), "steady");
    while (!done.load(std::memory_order_relaxed)) {
      if (clock::now().time_since_epoch().count() >= steady_until.load()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        continue;
      }
      for (int i = 0; i < 100; ++i) inner_call();
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });
  while (bursts.load() != burst_threads) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(1050));
  for (int i = 0; i < 3; ++i) {
    stall();
    steady_until = (clock::now() + std::chrono::milliseconds(150)).time_since_epoch().count();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  done = true;
  for (std::thread& t : threads) t.join();
}

int run_default() {
  {
    PERF_MEASURE("outer");
    for (int i = 1; i <= 3; ++i) step(i);
  }
  std::vector<std::thread> workers;
  for (int w = 1; w <= 3; ++w)
    workers.emplace_back([w] {
      pthread_setname_np(pthread_self(), ("worker-" + std::to_string(w)).c_str());
      for (int i = 0; i < 4; ++i) task(i);
    });
  for (std::thread& t : workers) t.join();
  perf::tick(80, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ<-63 bytes, cut here");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "wrap") {
    for (int i = 0; i < 100; ++i) perf::tick(i);
  } else if (mode == "stall") {
    run_stall();
  } else if (mode == "stall-sampled") {
    run_sampled_stall();
  } else if (mode == "capture-stream") {
    run_capture_stream(argc > 2 ? std::atoi(argv[2]) : 12);
  } else if (mode == "stream") {
    run_stream();
  } else if (mode == "wrap-spans") {
    {
      PERF_MEASURE("outer");
      PERF_MEASURE("middle");
      for (int i = 0; i < 100; ++i) perf::tick(i);
    }
    step(1);
  } else if (mode == "segv") {
    for (int i = 1; i <= 10; ++i) perf::tick(i, "before");
    crash();
  } else if (mode == "segv-named") {
    std::thread([] {
      pthread_setname_np(pthread_self(), "rk-worker-1");
      for (int i = 1; i <= 3; ++i) perf::tick(i, "before");
      crash();
    }).join();
  } else if (mode == "stream-segv") {
    run_stream();
    crash();
  } else if (mode == "segv-trace") {
    crash_on_third_thread();
  } else if (mode == "segv-threads") {
    crash_beside_threads();
  } else if (mode == "overflow") {
    for (int i = 1; i <= 3; ++i) perf::tick(i, "before");
    return recurse(0);
  } else if (mode == "churn") {
    for (int t = 0; t < 70; ++t)
      std::thread([] {
        for (int i = 1; i <= 3; ++i) perf::tick(i);
      }).join();
  } else if (mode == "abort") {
    for (int i = 1; i <= 3; ++i) perf::tick(i);
    std::abort();
  } else if (mode == "fork-abort") {
    for (int i = 1; i <= 3; ++i) perf::tick(i, "parent");
    const pid_t child = fork();
    if (child == 0) {
      for (int i = 1; i <= 3; ++i) perf::tick(i, "child");
      for (int i = 1; i <= 3; ++i) step(i);
      std::abort();
    }
    int status = 0;
    if (child < 0 || waitpid(child, &status, 0) != child) return 1;
  } else if (mode == "abort-fsize") {
    signal(SIGXFSZ, SIG_IGN);
    const rlimit limit = {4096, 4096};
    if (setrlimit(RLIMIT_FSIZE, &limit) != 0) return 1;
    for (int i = 1; i <= 1000; ++i) perf::tick(i, "filler");
    std::abort();
  } else if (mode == "dump" && argc > 2) {
    perf::tick(1);
    perf::tick(2);
    if (!perf::dump_ticks(argv[2])) return 1;
    perf::tick(3);
  } else {
    return run_default();
  }
  return 0;
}
