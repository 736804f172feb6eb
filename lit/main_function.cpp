// main itself.
// RUN: %rewrite-test %s 11 %t

[[perf::measure]] int main() { return 0; }
// CHECK: {{^}}{{\[\[}}perf::measure{{\]\]}} int main() { PERF_INSTRUMENT("main"); return 0; }

// REPORT: 1 main
