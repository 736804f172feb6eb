// C++20: a constexpr function keeps its scope, which does nothing during constant
// evaluation.
// RUN: %rewrite-test %s 20 %t

[[perf::measure]] constexpr int square(int x) { return x * x; }
// CHECK: {{^}}{{\[\[}}perf::measure{{\]\]}} constexpr int square(int x) { PERF_INSTRUMENT_CONSTEXPR("square"); return x * x; }
static_assert(square(4) == 16, "still a constant expression");

int main(int argc, char**) { return square(argc) == 1 ? 0 : 1; }

// REPORT: 1 square
