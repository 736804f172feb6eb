// Measured calls inside a signal handler that interrupts the thread anywhere: in the
// middle of a measured call's bookkeeping, or inside the runtime's own work (a
// snapshot holding the runtime's locks). Each of the handler's calls is recorded
// in full or not at all, the interrupted thread's figures stay whole, and nothing
// deadlocks.
#include <gtest/gtest.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>

#include "perf/perf.hpp"

namespace perf {
namespace {

void in_main() { PERF_MEASURE("signal_handler_test.in_main"); }
void in_handler() { PERF_MEASURE("signal_handler_test.in_handler"); }
// A leaf cheap enough that adaptive timing times only a sample of its calls.
void shared_leaf() { PERF_MEASURE_NO_TICKS("signal_handler_test.shared_leaf"); }

volatile sig_atomic_t handled = 0;
volatile sig_atomic_t shared_leaf_recorded = 0;  // the handler's calls of shared_leaf that were not dropped

void on_alarm(int) {
  in_handler();
  handled = handled + 1;
}

// Calls shared_leaf, counting the call where the runtime records it: everywhere but
// inside the probe's bookkeeping (the thread busy), where it is dropped whole.
void on_alarm_call_shared_leaf(int) {
  const bool busy = __atomic_load_n(&detail::current_thread->busy, __ATOMIC_RELAXED) != 0;
  shared_leaf();
  if (!busy) shared_leaf_recorded = shared_leaf_recorded + 1;
  handled = handled + 1;
}

// A timer that sends SIGALRM to the calling thread every `period`, its handler
// on_alarm, for the lifetime of the object.
class alarm_on_this_thread {
 public:
  explicit alarm_on_this_thread(std::chrono::nanoseconds period, void (*handler)(int) = on_alarm) {
    struct sigaction action {};
    action.sa_handler = handler;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    sigaction(SIGALRM, &action, &previous_);
    sigevent event{};
    event.sigev_notify = SIGEV_THREAD_ID;
    event.sigev_signo = SIGALRM;
    event._sigev_un._tid = gettid();
    timer_create(CLOCK_MONOTONIC, &event, &timer_);
    itimerspec every{};
    every.it_interval.tv_nsec = static_cast<long>(period.count());
    every.it_value = every.it_interval;
    timer_settime(timer_, 0, &every, nullptr);
  }
  ~alarm_on_this_thread() {
    timer_delete(timer_);
    sigaction(SIGALRM, &previous_, nullptr);
  }
  alarm_on_this_thread(const alarm_on_this_thread&) = delete;
  alarm_on_this_thread& operator=(const alarm_on_this_thread&) = delete;

 private:
  struct sigaction previous_ {};
  timer_t timer_{};
};

uint64_t histogram_sum(const function_stats& f) {
  uint64_t sum = 0;
  for (const auto& [bucket, count] : f.histogram) sum += count;
  return sum;
}

// Both functions are called once before the signals: a site's first call registers
// it, which allocates, and an allocation is no more async-signal-safe in a handler's
// measured call than anywhere else in a handler.
TEST(SignalHandler, MeasuredCallsInAHandlerKeepEveryCountEqualToItsHistogram) {
  constexpr sig_atomic_t snapshot_signals = 200, signals = 4000;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  in_main();
  in_handler();
  {
    const alarm_on_this_thread alarm(std::chrono::microseconds(50));  // 20 kHz
    // The handler's calls while this thread is inside the runtime, holding its locks
    // and draining its own pending durations.
    while (handled < snapshot_signals && std::chrono::steady_clock::now() < give_up) (void)take_snapshot();
    // Then while it makes measured calls back to back. ThreadSanitizer holds a signal
    // until the thread enters a function it intercepts: a sleep of nothing after each
    // thousand calls lets the held ones in (a loaded machine saw 1,674 in 20 s without).
    while (handled < signals && std::chrono::steady_clock::now() < give_up) {
      for (int i = 0; i < 1000; ++i) in_main();
      usleep(0);
    }
  }
  // The loop stops at `signals` or at 20 s: ThreadSanitizer on a loaded machine lets in
  // fewer (3,752 in one CI run, 910 in another), still hundreds of calls in the handler
  // to check.
  ASSERT_GE(handled, signals / 16) << "the timer's signals did not arrive";
  uint64_t in_handler_calls = 0;
  for (const function_stats& f : take_snapshot().functions) {
    if (f.name.rfind("signal_handler_test.", 0) != 0) continue;
    EXPECT_EQ(f.timed_calls, histogram_sum(f)) << f.name;
    if (f.name == "signal_handler_test.in_handler") in_handler_calls = f.calls;
  }
  // A call is left unrecorded only where the signal interrupted bookkeeping.
  EXPECT_LE(in_handler_calls, 1 + static_cast<uint64_t>(handled));
  EXPECT_GT(in_handler_calls, 0u);
}

// An untimed call's updates are single instructions: a handler that interrupts one,
// anywhere, and calls the same function keeps its own count, and the thread's.
TEST(SignalHandler, AHandlerInterruptingAnUntimedCallOfTheSameFunctionKeepsEveryCount) {
  constexpr uint64_t warm_up = 200000, per_round = 1000;
  constexpr sig_atomic_t signals = 4000;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  for (uint64_t i = 0; i < warm_up; ++i) shared_leaf();
  handled = 0;
  uint64_t main_calls = warm_up;
  {
    const alarm_on_this_thread alarm(std::chrono::microseconds(50), on_alarm_call_shared_leaf);  // 20 kHz
    while (handled < signals && std::chrono::steady_clock::now() < give_up) {
      for (uint64_t i = 0; i < per_round; ++i) shared_leaf();
      main_calls += per_round;
      usleep(0);  // lets the signals ThreadSanitizer holds in
    }
  }
  // The loop stops at `signals` or at 20 s: ThreadSanitizer on a loaded machine lets in
  // fewer (3,752 in one CI run, 910 in another), still hundreds of calls in the handler
  // to check.
  ASSERT_GE(handled, signals / 16) << "the timer's signals did not arrive";
  for (const function_stats& f : take_snapshot().functions) {
    if (f.name != "signal_handler_test.shared_leaf") continue;
#if !defined(__SANITIZE_THREAD__)  // whose instrumentation may make the leaf too slow to sample
    ASSERT_LT(f.timed_calls, f.calls) << "the leaf is sampled";
#endif
    EXPECT_EQ(f.calls, main_calls + static_cast<uint64_t>(shared_leaf_recorded));
    EXPECT_EQ(f.timed_calls, histogram_sum(f));
    return;
  }
  ADD_FAILURE() << "no row for signal_handler_test.shared_leaf";
}

}  // namespace
}  // namespace perf
