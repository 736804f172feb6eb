// [[clang::annotate("perf::measure")]] selects like the attribute; a second
// argument is the label.
// RUN: %rewrite-test %s 11 %t

[[clang::annotate("perf::measure")]] int plain() { return 1; }
// CHECK: {{^}}{{\[\[}}clang::annotate("perf::measure"){{\]\]}} int plain() { PERF_INSTRUMENT("plain"); return 1; }
[[clang::annotate("perf::measure", "with a label")]] int labelled() { return 2; }
// CHECK: {{^}}{{\[\[}}clang::annotate("perf::measure", "with a label"){{\]\]}} int labelled() { PERF_INSTRUMENT("with a label"); return 2; }

int main() { return plain() + labelled() == 3 ? 0 : 1; }

// REPORT: 1 plain
// REPORT-NEXT: 1 with a label
