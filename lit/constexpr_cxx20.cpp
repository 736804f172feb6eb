// C++20: constexpr functions keep their scope, which does nothing in constant
// evaluation; consteval ones are never measured.
// RUN: %make-db %t c++20 %s
// RUN: %perf-instrument -p %t 2>&1 | %FileCheck %s --check-prefix=WARN
// RUN: %FileCheck %s --input-file %t/constexpr_cxx20.cpp
// RUN: %compile-all %t/constexpr_cxx20.cpp 20 23
// RUN: %run-report 20 %t/constexpr_cxx20.cpp | %FileCheck %s --check-prefix=REPORT

[[perf::measure]] constexpr int square(int x) { return x * x; }
// CHECK: {{^}}{{\[\[}}perf::measure{{\]\]}} constexpr int square(int x) { PERF_INSTRUMENT_CONSTEXPR("square"); return x * x; }
static_assert(square(4) == 16, "still a constant expression");

[[perf::measure]] consteval int cube(int x) { return x * x * x; }
// WARN: constexpr_cxx20.cpp:[[@LINE-1]]:33: warning: cube is not measured: consteval: it runs only during compilation

int main(int argc, char**) { return square(argc) + cube(2) == 9 ? 0 : 1; }

// REPORT: 1 square
