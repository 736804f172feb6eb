// A function-try-block gets its scope inside the try block; the database's GCC-only
// flags (unknown to Clang) do not stop the parse; the annotate spelling takes a label.
// RUN: %make-db %t c++11 %s -- -fconserve-stack -fno-ipa-cp-clone
// RUN: %perf-instrument -p %t
// RUN: %FileCheck %s --input-file %t/try_block_gcc_flags.cpp
// RUN: %compile-all %t/try_block_gcc_flags.cpp 11 14 17 20 23
// RUN: %run-report 11 %t/try_block_gcc_flags.cpp | %FileCheck %s --check-prefix=REPORT

#include <stdexcept>

[[perf::measure]] int guarded(int x) try { if (x < 0) throw std::runtime_error("negative"); return x; } catch (const std::exception&) { return 0; }
// CHECK: {{^}}{{\[\[}}perf::measure{{\]\]}} int guarded(int x) try { PERF_INSTRUMENT("guarded"); if (x < 0)

[[clang::annotate("perf::measure", "annotated with a label")]] int annotated() { return 1; }
// CHECK: {{^}}{{\[\[}}clang::annotate("perf::measure", "annotated with a label"){{\]\]}} int annotated() { PERF_INSTRUMENT("annotated with a label"); return 1; }

int main() { return guarded(1) + guarded(-1) + annotated() == 2 ? 0 : 1; }

// The call that threw still counts.
// REPORT: 1 annotated with a label
// REPORT-NEXT: 2 guarded
