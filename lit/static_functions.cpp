// Static member functions and functions with internal linkage.
// RUN: %rewrite-test %s 11 %t

struct registry {
  [[perf::measure]] static int size() { return 3; }
  // CHECK: {{^}}  {{\[\[}}perf::measure{{\]\]}} static int size() { PERF_INSTRUMENT("registry::size"); return 3; }
};

[[perf::measure]] static int local_helper() { return 4; }
// CHECK: {{^}}{{\[\[}}perf::measure{{\]\]}} static int local_helper() { PERF_INSTRUMENT("local_helper"); return 4; }

int main() { return registry::size() + local_helper() == 7 ? 0 : 1; }

// REPORT: 1 local_helper
// REPORT-NEXT: 1 registry::size
