// Before C++20 a constexpr function is left alone: the scope would stop it being a
// constant expression.
// RUN: %rewrite-test %s 11 %t
// RUN: %FileCheck %s --check-prefix=WARN --input-file %t/stderr

[[perf::measure]] constexpr int square(int x) { return x * x; }
// WARN: constexpr_before_cxx20.cpp:[[@LINE-1]]:33: warning: square is not measured: constexpr before C++20: the scope would stop it being a constant expression
static_assert(square(3) == 9, "");
// CHECK-NOT: {{^[^/]*}}PERF_INSTRUMENT
