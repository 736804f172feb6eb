// A free function: the scope goes right after the opening brace, on its line; the
// file gets the header and a #line that keeps every line's number.
// RUN: %rewrite-test %s 11 %t

// CHECK: {{^}}#include <perf/instrumented.hpp> // perf-instrument
// CHECK-NEXT: {{^}}#line 1 "{{.*}}free_function.cpp"
// CHECK-NEXT: {{^}}// A free function: the scope goes right after

[[perf::measure]] int add(int a, int b) { return a + b; }
// CHECK: {{^}}{{\[\[}}perf::measure{{\]\]}} int add(int a, int b) { PERF_INSTRUMENT("add"); return a + b; }

int unmarked(int a) { return a; }
// CHECK: {{^}}int unmarked(int a) { return a; }

int main() { return add(1, 2) + add(3, 4) + unmarked(0) == 10 ? 0 : 1; }

// REPORT: 2 add
