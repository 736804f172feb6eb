// Member functions in and out of the class, static, virtual and override, operators,
// conversion functions, constructors (after the member-init list) and destructors.
// RUN: %make-db %t c++11 %s
// RUN: %perf-instrument -p %t
// RUN: %FileCheck %s --input-file %t/members.cpp
// RUN: %compile-all %t/members.cpp 11 14 17 20 23
// RUN: %run-report 11 %t/members.cpp | %FileCheck %s --check-prefix=REPORT

struct base {
  [[perf::measure]] base() : value(1) {}
  // CHECK: {{^}}  {{\[\[}}perf::measure{{\]\]}} base() : value(1) { PERF_INSTRUMENT("base::base");}
  [[perf::measure]] virtual ~base() {}
  // CHECK: {{^}}  {{\[\[}}perf::measure{{\]\]}} virtual ~base() { PERF_INSTRUMENT("base::~base");}
  [[perf::measure]] virtual int get() const { return value; }
  // CHECK: {{^}}  {{\[\[}}perf::measure{{\]\]}} virtual int get() const { PERF_INSTRUMENT("base::get"); return value; }
  [[perf::measure]] static int make();
  int value;
};

int base::make() { return 7; }
// CHECK: {{^}}int base::make() { PERF_INSTRUMENT("base::make"); return 7; }

struct derived : base {
  [[perf::measure]] int get() const override { return base::get() + 1; }
  // CHECK: {{^}}  {{\[\[}}perf::measure{{\]\]}} int get() const override { PERF_INSTRUMENT("derived::get"); return base::get() + 1; }
  [[perf::measure]] derived operator+(const derived&) const { return derived(); }
  // CHECK: {{^}}  {{\[\[}}perf::measure{{\]\]}} derived operator+(const derived&) const { PERF_INSTRUMENT("derived::operator+"); return derived(); }
  [[perf::measure]] explicit operator bool() const { return true; }
  // CHECK: {{^}}  {{\[\[}}perf::measure{{\]\]}} explicit operator bool() const { PERF_INSTRUMENT("derived::operator bool"); return true; }
};

int main() {
  derived a, b;
  const base& as_base = a + b;
  return as_base.get() == 2 && static_cast<bool>(a) && base::make() == 7 ? 0 : 1;
}

// Three objects made (a, b, the sum) and destroyed; get() once, on the derived
// object, which calls the base's.
// REPORT: 3 base::base
// REPORT-NEXT: 1 base::get
// REPORT-NEXT: 1 base::make
// REPORT-NEXT: 3 base::~base
// REPORT-NEXT: 1 derived::get
// REPORT-NEXT: 1 derived::operator bool
// REPORT-NEXT: 1 derived::operator+
