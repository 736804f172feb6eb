// A member of a class template is instrumented once, in the pattern.
// RUN: %rewrite-test %s 11 %t

template <class T>
struct box {
  [[perf::measure]] T get() const { return value; }
  // CHECK: {{^}}  {{\[\[}}perf::measure{{\]\]}} T get() const { PERF_INSTRUMENT("box<T>::get"); return value; }
  T value;
};
// CHECK-NOT: {{^[^/]*}}PERF_INSTRUMENT

int main() { return box<int>{3}.get() + static_cast<int>(box<double>{2.5}.get()) == 5 ? 0 : 1; }

// REPORT: 2 box<T>::get
