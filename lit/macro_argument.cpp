// A function whose definition is a macro argument is instrumented where the
// argument is spelled.
// RUN: %rewrite-test %s 11 %t

#define DEFINE(definition) definition
DEFINE([[perf::measure]] int from_argument() { return 3; })
// CHECK: {{^}}DEFINE({{\[\[}}perf::measure{{\]\]}} int from_argument() { PERF_INSTRUMENT("from_argument"); return 3; })

int main() { return from_argument() == 3 ? 0 : 1; }

// REPORT: 1 from_argument
