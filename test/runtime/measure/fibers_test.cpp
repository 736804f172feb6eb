// Measured scopes that a user-space context switch leaves open (ucontext fibers): a
// scope that ends on another thread than it began on, or after the thread's chain of
// open activations moved past it, is a switched call, counted apart; every figure
// stays consistent, and no thread's block is written by another thread.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sys/mman.h>

#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "measure/busy_loop.hpp"
#include "measure/fiber.hpp"
#include "perf/perf.hpp"
#include "snapshot_lookup.hpp"

namespace perf {
namespace {

using testing::busy_loop;
using testing::fiber;
using testing::stats_of;
using testing::switched_calls_of;

__attribute__((noinline)) void finishes_where_it_began() {
  PERF_MEASURE("fibers_test.finishes_where_it_began");
  busy_loop(100);
}

// Yields inside its scope; the scope ends wherever the fiber is resumed.
__attribute__((noinline)) void yields_inside_its_scope(fiber& self) {
  PERF_MEASURE("fibers_test.yields_inside_its_scope");
  busy_loop(100);
  self.yield();
  finishes_where_it_began();
}

// A work-stealing scheduler's shape: thread A runs every fiber up to its yield, inside
// a measured scope, and exits; thread B resumes them all. Each scope ends on B, which
// must not write A's block (freed when A exited: the heap was corrupted, 8 runs of 8
// died in finish()). The calls are switched calls; the measured call each fiber makes
// on B after resuming is B's own, counted.
TEST(Fibers, AScopeEndingOnAnotherThreadIsASwitchedCallAndWritesNoOtherThreadsBlock) {
  constexpr int fibers = 200;
  std::vector<std::unique_ptr<fiber>> all;
  for (int i = 0; i < fibers; ++i) all.push_back(std::make_unique<fiber>(yields_inside_its_scope));
  std::thread([&] {
    for (auto& f : all) f->resume();
  }).join();
  std::thread([&] {
    for (auto& f : all) f->resume();
  }).join();
  for (auto& f : all) EXPECT_TRUE(f->finished());
  EXPECT_EQ(stats_of("fibers_test.yields_inside_its_scope").calls, 0u);
  EXPECT_EQ(switched_calls_of("fibers_test.yields_inside_its_scope"), uint64_t{fibers});
  EXPECT_EQ(stats_of("fibers_test.finishes_where_it_began").calls, uint64_t{fibers});
}

// The scopes of one step of a scheduler and of a fiber it resumes, each left open
// across the switches between the thread's stack and the fiber's; rows of their own
// per Instance.
template <int Instance>
__attribute__((noinline)) void fiber_leaf(fiber& self) {
  PERF_MEASURE(Instance == 0 ? "fibers_test.fiber_leaf" : "fibers_test.fiber_leaf.1");
  busy_loop(1000);
  self.yield();
  busy_loop(1000);
}
template <int Instance>
__attribute__((noinline)) void fiber_outer(fiber& self) {
  PERF_MEASURE(Instance == 0 ? "fibers_test.fiber_outer" : "fibers_test.fiber_outer.1");
  busy_loop(1000);
  fiber_leaf<Instance>(self);
}
template <int Instance>
__attribute__((noinline)) void resume_fiber(fiber& f) {
  PERF_MEASURE(Instance == 0 ? "fibers_test.resume_fiber" : "fibers_test.resume_fiber.1");
  f.resume();
}
template <int Instance>
__attribute__((noinline)) void scheduler_step(fiber& f) {
  PERF_MEASURE(Instance == 0 ? "fibers_test.scheduler_step" : "fibers_test.scheduler_step.1");
  busy_loop(100000);
  resume_fiber<Instance>(f);
  busy_loop(1000);
}

// `steps` steps of the scheduler on a thread of its own whose stack lies below the
// fiber's (`fiber_above`) or above it, then every row's figures: each call counted
// once, in its row or as a switched call, and self <= total, nothing negative. The chain
// compares addresses, so where the stacks lie decides which are switched calls: the
// fiber's (below the thread's stack it is no enclosing activation's callee: the scope
// around the resume closes with the fiber's scopes open above it in the chain), or
// the scheduler's (above it, the fiber's scopes take the scheduler's out of the chain).
template <int Instance>
void expect_consistent_figures_after_steps(bool fiber_above, const char* const (&names)[4]) {
  constexpr int steps = 50;
  constexpr size_t thread_bytes = 1 << 20, fiber_bytes = 256 << 10;
  void* const region =
      mmap(nullptr, thread_bytes + fiber_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(region, MAP_FAILED);
  char* const low = static_cast<char*>(region);
  fiber f(
      [](fiber& self) {
        for (;;) fiber_outer<Instance>(self);
      },
      fiber_above ? low + thread_bytes : low, fiber_bytes);
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstack(&attributes, fiber_above ? low : low + fiber_bytes, thread_bytes);
  pthread_t scheduler;
  ASSERT_EQ(pthread_create(
                &scheduler, &attributes,
                [](void* resumed) -> void* {
                  for (int step = 0; step < steps; ++step) scheduler_step<Instance>(*static_cast<fiber*>(resumed));
                  return nullptr;
                },
                &f),
            0);
  pthread_join(scheduler, nullptr);
  pthread_attr_destroy(&attributes);
  munmap(region, thread_bytes + fiber_bytes);
  const bool fiber_counted = fiber_above;
  // The fiber's last calls never end.
  const uint64_t counted[] = {fiber_counted ? 0u : steps, fiber_counted ? 0u : steps, fiber_counted ? steps - 1 : 0u,
                              fiber_counted ? steps - 1 : 0u};
  const uint64_t switched[] = {steps - counted[0], steps - counted[1], steps - 1 - counted[2], steps - 1 - counted[3]};
  for (int i = 0; i < 4; ++i) {
    const function_stats row = stats_of(names[i]);
    EXPECT_EQ(row.calls, counted[i]) << names[i];
    EXPECT_EQ(switched_calls_of(names[i]), switched[i]) << names[i];
    EXPECT_LE(row.self_ns, row.total_ns) << names[i];
    EXPECT_GE(row.self_ns, 0.0) << names[i];
    EXPECT_GE(row.min_ns, 0.0) << names[i];
  }
}

// A scheduler resuming a fiber inside a measured scope, the fiber yielding inside its
// own: the scope around the switch had a self time 8 to 10 times its total.
TEST(Fibers, ScopesLeftOpenAcrossSwitchesOnOneThreadAreCountedOnceWithConsistentFigures) {
  expect_consistent_figures_after_steps<0>(false, {"fibers_test.scheduler_step", "fibers_test.resume_fiber",
                                                   "fibers_test.fiber_outer", "fibers_test.fiber_leaf"});
  expect_consistent_figures_after_steps<1>(true, {"fibers_test.scheduler_step.1", "fibers_test.resume_fiber.1",
                                                  "fibers_test.fiber_outer.1", "fibers_test.fiber_leaf.1"});
}

// A fiber abandoned inside its scope (never resumed): the samples of the thread's
// later work on its own stack are not the abandoned function's.
TEST(Fibers, AnAbandonedFibersScopeEnclosesNothingOnTheThreadsOwnStack) {
  fiber f([](fiber& self) {
    PERF_MEASURE("fibers_test.abandoned");
    self.yield();
  });
  std::thread([&] {
    finishes_where_it_began();  // attaches the thread
    f.resume();
    const detail::thread_state& thread = *detail::current_thread;
    const unsigned abandoned = thread.chain[thread.depth - 1].site;
    EXPECT_NE(abandoned, 0u) << "the fiber's scope is open in the chain";
    const auto sp = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));  // on the thread's stack, under ASan too
    pthread_attr_t attributes;
    void* low = nullptr;
    size_t bytes = 0;
    ASSERT_EQ(pthread_getattr_np(pthread_self(), &attributes), 0);
    ASSERT_EQ(pthread_attr_getstack(&attributes, &low, &bytes), 0);
    pthread_attr_destroy(&attributes);
    const auto stack_low = reinterpret_cast<uintptr_t>(low);
    EXPECT_EQ(detail::enclosing_site(thread, sp, stack_low, stack_low + bytes), 0u);
  }).join();
  EXPECT_FALSE(f.finished());
}

}  // namespace
}  // namespace perf
