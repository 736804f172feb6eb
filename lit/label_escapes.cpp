// A label means what its literal says, whatever it holds: the inserted literal
// escapes quotes, backslashes and control characters (so it stays on its line) and
// never forms a trigraph (GCC reads them in strict C++11 and C++14 modes).
// RUN: %rewrite-test %s 11 %t

[[perf::measure("say \"hi\"")]] int quoted() { return 1; }
// CHECK: {{^}}{{.*}} int quoted() { PERF_INSTRUMENT("say \"hi\""); return 1; }
[[perf::measure("tab\there")]] int tabbed() { return 2; }
// CHECK: {{^}}{{.*}} int tabbed() { PERF_INSTRUMENT("tab\there"); return 2; }
[[perf::measure("what?" "?!")]] int surprised() { return 3; }
// CHECK: {{^}}{{.*}} int surprised() { PERF_INSTRUMENT("what?\?!"); return 3; }
[[clang::annotate("perf::measure", "C:\\path\nnext")]] int annotated() { return 4; }
// CHECK: {{^}}{{.*}} int annotated() { PERF_INSTRUMENT("C:\\path\nnext"); return 4; }

int main() { return quoted() + tabbed() + surprised() + annotated() == 10 ? 0 : 1; }

// REPORT: 1 C:\path\nnext
// REPORT-NEXT: 1 say "hi"
// REPORT-NEXT: 1 tab\there
// REPORT-NEXT: 1 what??!
