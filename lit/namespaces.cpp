// Functions in named, nested and anonymous namespaces.
// RUN: %rewrite-test %s 11 %t

namespace outer { namespace inner {
[[perf::measure]] int f() { return 1; }
// CHECK: {{^}}{{\[\[}}perf::measure{{\]\]}} int f() { PERF_INSTRUMENT("outer::inner::f"); return 1; }
} }

namespace {
[[perf::measure]] int hidden() { return 2; }
// CHECK: {{^}}{{\[\[}}perf::measure{{\]\]}} int hidden() { PERF_INSTRUMENT("(anonymous namespace)::hidden"); return 2; }
}

int main() { return outer::inner::f() + hidden() == 3 ? 0 : 1; }

// REPORT: 1 (anonymous namespace)::hidden
// REPORT-NEXT: 1 outer::inner::f
