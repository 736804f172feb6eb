// Virtual functions and their overrides are measured apart.
// RUN: %rewrite-test %s 11 %t

struct shape {
  virtual ~shape() {}
  [[perf::measure]] virtual int corners() const { return 0; }
  // CHECK: {{^}}  {{\[\[}}perf::measure{{\]\]}} virtual int corners() const { PERF_INSTRUMENT("shape::corners"); return 0; }
};

struct square : shape {
  [[perf::measure]] int corners() const override { return 4 + shape::corners(); }
  // CHECK: {{^}}  {{\[\[}}perf::measure{{\]\]}} int corners() const override { PERF_INSTRUMENT("square::corners"); return 4 + shape::corners(); }
};

int main() {
  const square s;
  const shape& as_shape = s;
  return as_shape.corners() == 4 ? 0 : 1;
}

// REPORT: 1 shape::corners
// REPORT-NEXT: 1 square::corners
