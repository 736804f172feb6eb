// A function-try-block is measured inside its try block; a call that throws counts.
// RUN: %rewrite-test %s 11 %t

#include <stdexcept>

[[perf::measure]] int guarded(int x) try { if (x < 0) throw std::runtime_error("negative"); return x; } catch (const std::exception&) { return 0; }
// CHECK: {{^}}{{\[\[}}perf::measure{{\]\]}} int guarded(int x) try { PERF_INSTRUMENT("guarded"); if (x < 0)

int main() { return guarded(1) + guarded(-1) == 1 ? 0 : 1; }

// REPORT: 2 guarded
