// A noexcept function.
// RUN: %rewrite-test %s 11 %t

[[perf::measure]] void nothing() noexcept {}
// CHECK: {{^}}{{\[\[}}perf::measure{{\]\]}} void nothing() noexcept { PERF_INSTRUMENT("nothing");}

int main() {
  nothing();
  return 0;
}

// REPORT: 1 nothing
