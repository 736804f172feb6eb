// consteval functions are never measured.
// RUN: %rewrite-test %s 20 %t
// RUN: %FileCheck %s --check-prefix=WARN --input-file %t/stderr

[[perf::measure]] consteval int cube(int x) { return x * x * x; }
// WARN: consteval.cpp:[[@LINE-1]]:33: warning: cube is not measured: consteval: it runs only during compilation
// CHECK-NOT: {{^[^/]*}}PERF_INSTRUMENT

int main() { return cube(2) == 8 ? 0 : 1; }
