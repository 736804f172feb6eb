// Operators and conversion functions.
// RUN: %rewrite-test %s 11 %t

struct money {
  [[perf::measure]] money operator+(const money& other) const { return money{cents + other.cents}; }
  // CHECK: {{^}}  {{\[\[}}perf::measure{{\]\]}} money operator+(const money& other) const { PERF_INSTRUMENT("money::operator+"); return money{cents + other.cents}; }
  [[perf::measure]] explicit operator bool() const { return cents != 0; }
  // CHECK: {{^}}  {{\[\[}}perf::measure{{\]\]}} explicit operator bool() const { PERF_INSTRUMENT("money::operator bool"); return cents != 0; }
  int cents;
};

int main() { return static_cast<bool>(money{1} + money{2} + money{3}) ? 0 : 1; }

// REPORT: 1 money::operator bool
// REPORT-NEXT: 2 money::operator+
