// Free functions, static and noexcept ones, and main: the scope goes right after
// the opening brace, on the same line; the file gets the header and #line.
// RUN: %make-db %t c++11 %s
// RUN: %perf-instrument -p %t
// RUN: %FileCheck %s --input-file %t/free_functions.cpp
// RUN: %compile-all %t/free_functions.cpp 11 14 17 20 23
// RUN: %run-report 11 %t/free_functions.cpp | %FileCheck %s --check-prefix=REPORT

// CHECK: {{^}}#include <perf/instrumented.hpp> // perf-instrument
// CHECK-NEXT: {{^}}#line 1 "{{.*}}free_functions.cpp"
// CHECK-NEXT: {{^}}// Free functions, static and noexcept ones

[[perf::measure]] int add(int a, int b) { return a + b; }
// CHECK: {{^}}{{\[\[}}perf::measure{{\]\]}} int add(int a, int b) { PERF_INSTRUMENT("add"); return a + b; }

[[perf::measure]] static int twice(int a)
{
  return 2 * a;
}
// CHECK: {{^}}{ PERF_INSTRUMENT("twice");{{$}}

[[perf::measure]] void nothing() noexcept {}
// CHECK: {{^}}{{\[\[}}perf::measure{{\]\]}} void nothing() noexcept { PERF_INSTRUMENT("nothing");}

int unmarked(int a) { return a; }
// CHECK: {{^}}int unmarked(int a) { return a; }

[[perf::measure]] int main() {
  int sum = 0;
  for (int i = 0; i < 5; ++i) sum += add(i, twice(i));
  nothing();
  return unmarked(sum) == 30 ? 0 : 1;
}
// CHECK: {{^}}{{\[\[}}perf::measure{{\]\]}} int main() { PERF_INSTRUMENT("main");

// REPORT: 5 add
// REPORT-NEXT: 1 main
// REPORT-NEXT: 1 nothing
// REPORT-NEXT: 5 twice
