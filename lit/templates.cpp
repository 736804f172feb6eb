// Function templates and members of class templates are instrumented once, in the
// pattern; an explicit specialisation gets its own scope.
// RUN: %make-db %t c++11 %s
// RUN: %perf-instrument -p %t
// RUN: %FileCheck %s --input-file %t/templates.cpp
// RUN: %compile-all %t/templates.cpp 11 14 17 20 23
// RUN: %run-report 11 %t/templates.cpp | %FileCheck %s --check-prefix=REPORT

template <class T>
[[perf::measure]] T larger(T a, T b) { return a < b ? b : a; }
// CHECK: {{^}}{{\[\[}}perf::measure{{\]\]}} T larger(T a, T b) { PERF_INSTRUMENT("larger<T>"); return a < b ? b : a; }

template <>
[[perf::measure]] const char* larger(const char* a, const char*) { return a; }
// CHECK: {{^}}{{\[\[}}perf::measure{{\]\]}} const char* larger(const char* a, const char*) { PERF_INSTRUMENT("larger<const char *>"); return a; }

template <class T>
struct box {
  [[perf::measure]] T get() const { return value; }
  // CHECK: {{^}}  {{\[\[}}perf::measure{{\]\]}} T get() const { PERF_INSTRUMENT("box<T>::get"); return value; }
  T value;
};

int main() {
  box<int> i{3};
  box<double> d{2.5};
  return larger(1, 2) + static_cast<int>(larger(1.0, d.get())) + i.get() + (*larger("a", "b") == 'a' ? 0 : 1) == 7 ? 0 : 1;
}

// The scope sits in the pattern, once for every instantiation; the report merges them.
// CHECK-NOT: {{^[^/]*}}PERF_INSTRUMENT
// REPORT: 2 box<T>::get
// REPORT-NEXT: 2 larger<T>
// REPORT-NEXT: 1 larger<const char *>
