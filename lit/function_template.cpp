// A function template is instrumented once, in its pattern; the report merges the
// instantiations into one row.
// RUN: %rewrite-test %s 11 %t

template <class T>
[[perf::measure]] T larger(T a, T b) { return a < b ? b : a; }
// CHECK: {{^}}{{\[\[}}perf::measure{{\]\]}} T larger(T a, T b) { PERF_INSTRUMENT("larger<T>"); return a < b ? b : a; }
// CHECK-NOT: {{^[^/]*}}PERF_INSTRUMENT

int main() { return larger(1, 2) + static_cast<int>(larger(1.0, 2.5)) + larger('a', 'b') == 'b' + 4 ? 0 : 1; }

// REPORT: 3 larger<T>
