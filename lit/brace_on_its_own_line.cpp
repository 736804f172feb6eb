// A brace on a line of its own gets the scope on that line.
// RUN: %rewrite-test %s 11 %t

[[perf::measure]] int twice(int a)
{
  return 2 * a;
}
// CHECK: {{^}}{ PERF_INSTRUMENT("twice");{{$}}
// CHECK-NEXT: {{^}}  return 2 * a;

int main() { return twice(2) == 4 ? 0 : 1; }

// REPORT: 1 twice
