// Lambdas (through their call operator), named and anonymous namespaces, extern "C",
// and functions whose definition is a macro argument.
// RUN: %make-db %t c++17 %s
// RUN: %perf-instrument -p %t
// RUN: %FileCheck %s --input-file %t/lambdas_namespaces.cpp
// RUN: %compile-all %t/lambdas_namespaces.cpp 17 20 23
// RUN: %run-report 17 %t/lambdas_namespaces.cpp | %FileCheck %s --check-prefix=REPORT

namespace outer { namespace inner {
[[perf::measure]] int f(int x) { return x; }
// CHECK: {{^}}{{\[\[}}perf::measure{{\]\]}} int f(int x) { PERF_INSTRUMENT("outer::inner::f"); return x; }
} }

namespace {
[[perf::measure]] int hidden() { return 1; }
// CHECK: {{^}}{{\[\[}}perf::measure{{\]\]}} int hidden() { PERF_INSTRUMENT("(anonymous namespace)::hidden"); return 1; }
}

extern "C" [[perf::measure]] int c_function(void) { return 2; }
// CHECK: {{^}}extern "C" {{\[\[}}perf::measure{{\]\]}} int c_function(void) { PERF_INSTRUMENT("c_function"); return 2; }

#define DEFINE(definition) definition
DEFINE([[perf::measure]] int from_argument() { return 3; })
// CHECK: {{^}}DEFINE({{\[\[}}perf::measure{{\]\]}} int from_argument() { PERF_INSTRUMENT("from_argument"); return 3; })

int main() {
  auto add = [] [[perf::measure]] (int a, int b) { return a + b; };
  // CHECK: {{^}}  auto add = [] {{\[\[}}perf::measure{{\]\]}} (int a, int b) { PERF_INSTRUMENT("main::(lambda at line [[#@LINE-1]])"); return a + b; };
  int sum = 0;
  for (int i = 0; i < 4; ++i) sum = add(sum, outer::inner::f(i));
  return sum + hidden() + c_function() + from_argument() == 12 ? 0 : 1;
}

// REPORT: 1 (anonymous namespace)::hidden
// REPORT-NEXT: 1 c_function
// REPORT-NEXT: 1 from_argument
// REPORT-NEXT: 4 main::(lambda at line 27)
// REPORT-NEXT: 4 outer::inner::f
