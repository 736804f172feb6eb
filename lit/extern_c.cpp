// An extern "C" function.
// RUN: %rewrite-test %s 11 %t

extern "C" [[perf::measure]] int c_entry(void) { return 2; }
// CHECK: {{^}}extern "C" {{\[\[}}perf::measure{{\]\]}} int c_entry(void) { PERF_INSTRUMENT("c_entry"); return 2; }

int main() { return c_entry() == 2 ? 0 : 1; }

// REPORT: 1 c_entry
