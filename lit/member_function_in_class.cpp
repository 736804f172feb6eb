// A member function defined in its class.
// RUN: %rewrite-test %s 11 %t

struct account {
  [[perf::measure]] int balance() const { return cents; }
  // CHECK: {{^}}  {{\[\[}}perf::measure{{\]\]}} int balance() const { PERF_INSTRUMENT("account::balance"); return cents; }
  int cents;
};

int main() { return account{5}.balance() == 5 ? 0 : 1; }

// REPORT: 1 account::balance
