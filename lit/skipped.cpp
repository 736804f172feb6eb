// What cannot be measured is left alone, with a warning naming the reason.
// RUN: %make-db %t c++17 %s
// RUN: %perf-instrument -p %t 2>&1 | %FileCheck %s --check-prefix=WARN
// RUN: %FileCheck %s --input-file %t/skipped.cpp
// RUN: %compile-all %t/skipped.cpp 17 20 23

[[perf::measure]] constexpr int square(int x) { return x * x; }
// WARN: skipped.cpp:[[@LINE-1]]:33: warning: square is not measured: constexpr before C++20: the scope would stop it being a constant expression
static_assert(square(3) == 9, "");

struct value {
  [[perf::measure]] value() = default;
  // WARN: skipped.cpp:[[@LINE-1]]:21: warning: value::value is not measured: defaulted: it has no body to measure
  [[perf::measure]] value(const value&) = delete;
  // WARN: skipped.cpp:[[@LINE-1]]:21: warning: value::value is not measured: deleted: it has no body to measure
};

#define GETTER(name) int name() { return 1; }
[[perf::measure]] GETTER(one)
// WARN: skipped.cpp:[[@LINE-1]]:26: warning: one is not measured: body spelled inside a macro definition

// CHECK-NOT: {{^[^/]*}}PERF_INSTRUMENT
