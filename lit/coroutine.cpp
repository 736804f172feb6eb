// A coroutine is not measured: a scope cannot follow it across suspensions.
// RUN: %rewrite-test %s 20 %t
// RUN: %FileCheck %s --check-prefix=WARN --input-file %t/stderr

#include <coroutine>

struct task {
  struct promise_type {
    task get_return_object() { return {}; }
    std::suspend_never initial_suspend() noexcept { return {}; }
    std::suspend_never final_suspend() noexcept { return {}; }
    void return_void() {}
    void unhandled_exception() {}
  };
};

[[perf::measure]] task run() { co_return; }
// WARN: coroutine.cpp:[[@LINE-1]]:24: warning: run is not measured: coroutine: a scope cannot follow it across suspensions
// CHECK-NOT: {{^[^/]*}}PERF_INSTRUMENT
