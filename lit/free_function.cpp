// A free function: the scope goes right after the opening brace, on its line; the
// header takes the empty line below, so every line keeps its number (header_line.test).
// RUN: %rewrite-test %s 11 %t

// CHECK: {{^}}#include <perf/instrumented.hpp> // perf-instrument{{$}}

[[perf::measure]] int add(int a, int b) { return a + b; }
// CHECK: {{^}}{{\[\[}}perf::measure{{\]\]}} int add(int a, int b) { PERF_INSTRUMENT("add"); return a + b; }

int unmarked(int a) { return a; }
// CHECK: {{^}}int unmarked(int a) { return a; }

int main() { return add(1, 2) + add(3, 4) + unmarked(0) == 10 ? 0 : 1; }

// REPORT: 2 add
