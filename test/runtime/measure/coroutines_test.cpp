// PERF_MEASURE at the top of a C++20 coroutine's body, whose scope lives in the
// coroutine's frame and spans its suspensions: resumed by another thread, or on its
// own thread after its resumer's scope closed, its call is a switched call, counted
// apart, and no thread's block is written by another thread.
#include <gtest/gtest.h>

#include <coroutine>
#include <cstdint>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "measure/busy_loop.hpp"
#include "perf/perf.hpp"
#include "snapshot_lookup.hpp"

namespace perf {
namespace {

using testing::busy_loop;
using testing::stats_of;
using testing::switched_calls_of;

// A coroutine that runs at once, and whose frame its caller destroys.
struct task {
  struct promise_type {
    task get_return_object() { return {std::coroutine_handle<promise_type>::from_promise(*this)}; }
    std::suspend_never initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> handle;
};

// Suspends the coroutine, leaving its handle in `queue` for whoever resumes it.
struct hand_over {
  std::vector<std::coroutine_handle<>>& queue;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> handle) { queue.push_back(handle); }
  void await_resume() const noexcept {}
};

__attribute__((noinline)) void after_resuming() {
  PERF_MEASURE("coroutines_test.after_resuming");
  busy_loop(100);
}

task measured_coroutine(std::vector<std::coroutine_handle<>>& queue) {
  PERF_MEASURE("coroutines_test.measured_coroutine");
  busy_loop(100);
  co_await hand_over{queue};
  after_resuming();
}

// A thread starts the coroutines and exits; a worker resumes them, and each scope ends
// on the worker. It wrote the first thread's freed block: glibc's "corrupted
// double-linked list" or SIGSEGV in 16 runs of 22, and counts lost. Now each is a
// switched call; the calls each coroutine makes on the worker are the worker's.
TEST(Coroutines, AScopeResumedOnAWorkerThreadIsASwitchedCallAndWritesNoOtherThreadsBlock) {
  constexpr int coroutines = 500;
  std::vector<std::coroutine_handle<>> queue;
  std::vector<task> tasks;
  std::thread([&] {
    for (int i = 0; i < coroutines; ++i) tasks.push_back(measured_coroutine(queue));
  }).join();
  std::thread([&] {
    for (std::coroutine_handle<> handle : queue) handle.resume();
  }).join();
  for (task& t : tasks) {
    EXPECT_TRUE(t.handle.done());
    t.handle.destroy();
  }
  EXPECT_EQ(stats_of("coroutines_test.measured_coroutine").calls, 0u);
  EXPECT_EQ(switched_calls_of("coroutines_test.measured_coroutine"), uint64_t{coroutines});
  EXPECT_EQ(stats_of("coroutines_test.after_resuming").calls, uint64_t{coroutines});
}

task coroutine_on_one_thread(std::vector<std::coroutine_handle<>>& queue) {
  PERF_MEASURE("coroutines_test.coroutine_on_one_thread");
  busy_loop(1000);
  co_await hand_over{queue};
  busy_loop(1000);
}

__attribute__((noinline)) task start_in_a_measured_scope(std::vector<std::coroutine_handle<>>& queue) {
  PERF_MEASURE("coroutines_test.starts_it");
  busy_loop(1000);
  return coroutine_on_one_thread(queue);
}

// Suspended inside its scope, a coroutine returns to its resumer, whose scope closes;
// resumed later on the same thread, outside that scope, its scope ends off the chain:
// a switched call, and the resumer's figures are its own (self <= total).
TEST(Coroutines, AScopeResumedOnItsThreadAfterItsResumerClosedIsASwitchedCall) {
  constexpr int coroutines = 100;
  std::vector<std::coroutine_handle<>> queue;
  std::vector<task> tasks;
  std::thread([&] {
    for (int i = 0; i < coroutines; ++i) tasks.push_back(start_in_a_measured_scope(queue));
    for (std::coroutine_handle<> handle : queue) handle.resume();
  }).join();
  for (task& t : tasks) t.handle.destroy();
  EXPECT_EQ(stats_of("coroutines_test.coroutine_on_one_thread").calls, 0u);
  EXPECT_EQ(switched_calls_of("coroutines_test.coroutine_on_one_thread"), uint64_t{coroutines});
  const function_stats starts = stats_of("coroutines_test.starts_it");
  EXPECT_EQ(starts.calls, uint64_t{coroutines});
  EXPECT_LE(starts.self_ns, starts.total_ns);
}

// Resumed inside the scope that started it (a generator's shape), a coroutine's scope
// ends in the chain: an ordinary call, nested in that scope.
__attribute__((noinline)) void start_and_finish_in_a_measured_scope() {
  PERF_MEASURE("coroutines_test.generator_user");
  std::vector<std::coroutine_handle<>> queue;
  task t = coroutine_on_one_thread(queue);
  queue.front().resume();
  t.handle.destroy();
}

TEST(Coroutines, AScopeResumedInsideTheScopeThatStartedItIsAnOrdinaryCall) {
  constexpr int rounds = 100;
  const uint64_t before = stats_of("coroutines_test.coroutine_on_one_thread").calls;
  std::thread([&] {
    for (int i = 0; i < rounds; ++i) start_and_finish_in_a_measured_scope();
  }).join();
  const function_stats coroutine = stats_of("coroutines_test.coroutine_on_one_thread");
  const function_stats user = stats_of("coroutines_test.generator_user");
  EXPECT_EQ(coroutine.calls - before, uint64_t{rounds});
  EXPECT_EQ(user.calls, uint64_t{rounds});
  EXPECT_LE(user.self_ns, user.total_ns);
  EXPECT_LE(user.self_ns, user.total_ns - coroutine.total_ns * 0.9) << "the coroutine is the user's callee";
}

}  // namespace
}  // namespace perf
