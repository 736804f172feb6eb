// Flags only GCC knows, in the database, do not stop the parse.
// RUN: %make-db %t c++11 %s -- -fconserve-stack -fno-ipa-cp-clone
// RUN: %perf-instrument -p %t
// RUN: %FileCheck %s --input-file %t/gcc_only_flags.cpp

[[perf::measure]] int f() { return 1; }
// CHECK: {{^}}{{\[\[}}perf::measure{{\]\]}} int f() { PERF_INSTRUMENT("f"); return 1; }
