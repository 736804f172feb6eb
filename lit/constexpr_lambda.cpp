// Before C++20, a lambda that is constexpr only implicitly (C++17) keeps a plain
// scope and stays callable at run time (one used in a constant expression must be
// excluded); one that says `constexpr` is left alone, with a warning.
// RUN: %rewrite-test %s 17 %t
// RUN: %FileCheck %s --check-prefix=WARN --input-file %t/stderr --match-full-lines

int main() {
  auto implicit = [] [[perf::measure]] (int x) { return x + 1; };
  // CHECK: {{^}}  auto implicit = [] {{\[\[}}perf::measure{{\]\]}} (int x) { PERF_INSTRUMENT("main::(lambda at line [[#@LINE-1]])"); return x + 1; };
  constexpr auto spelled = [] [[perf::measure]] (int x) constexpr { return x * 2; };
  // CHECK: {{^}}  constexpr auto spelled = [] {{\[\[}}perf::measure{{\]\]}} (int x) constexpr { return x * 2; };
  // WARN: {{.*}}constexpr_lambda.cpp:[[#@LINE-2]]:28: warning: main::(lambda at line [[#@LINE-2]]) is not measured: constexpr before C++20: the scope would stop it being a constant expression
  static_assert(spelled(2) == 4, "still a constant expression");
  return implicit(1) + spelled(1) == 4 ? 0 : 1;
}

// REPORT: 1 main::(lambda at line 8)
