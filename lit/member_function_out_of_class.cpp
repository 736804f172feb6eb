// A member function declared with the attribute and defined outside its class.
// RUN: %rewrite-test %s 11 %t

struct account {
  [[perf::measure]] int deposit(int amount);
  int cents = 0;
};

int account::deposit(int amount) { return cents += amount; }
// CHECK: {{^}}int account::deposit(int amount) { PERF_INSTRUMENT("account::deposit"); return cents += amount; }

int main() {
  account a;
  a.deposit(2);
  return a.deposit(3) == 5 ? 0 : 1;
}

// REPORT: 2 account::deposit
