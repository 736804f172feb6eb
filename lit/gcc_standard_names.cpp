// A -std= value that GCC knows under its final name and this Clang only under its
// provisional one (c++23 is c++2b before Clang 17), and GCC-only flags, in the
// database: the unit parses as the standard it names.
// RUN: %make-db %t c++23 %s -- -fconcepts-diagnostics-depth=2 -fconserve-stack
// RUN: %perf-instrument -p %t
// RUN: %FileCheck %s --input-file %t/gcc_standard_names.cpp

[[perf::measure]] constexpr int f() { return 1; }
// CHECK: {{^}}{{\[\[}}perf::measure{{\]\]}} constexpr int f() { PERF_INSTRUMENT_CONSTEXPR("f"); return 1; }
