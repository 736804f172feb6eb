// A body spelled inside a macro definition is left alone: it would be instrumented in
// every expansion, or in none.
// RUN: %rewrite-test %s 11 %t
// RUN: %FileCheck %s --check-prefix=WARN --input-file %t/stderr

#define GETTER(name) int name() { return 1; }
[[perf::measure]] GETTER(one)
// WARN: macro_body.cpp:[[@LINE-1]]:26: warning: one is not measured: body spelled inside a macro definition
// CHECK-NOT: {{^[^/]*}}PERF_INSTRUMENT
