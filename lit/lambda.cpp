// A lambda, through its call operator, named after its enclosing function and line.
// RUN: %rewrite-test %s 11 %t

int main() {
  auto add = [] [[perf::measure]] (int a, int b) { return a + b; };
  // CHECK: {{^}}  auto add = [] {{\[\[}}perf::measure{{\]\]}} (int a, int b) { PERF_INSTRUMENT("main::(lambda at line [[#@LINE-1]])"); return a + b; };
  int sum = 0;
  for (int i = 0; i < 4; ++i) sum = add(sum, i);
  return sum == 6 ? 0 : 1;
}

// REPORT: 4 main::(lambda at line 5)
