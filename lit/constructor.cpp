// A constructor is measured after its member-init list, at the body's brace.
// RUN: %rewrite-test %s 11 %t

struct point {
  [[perf::measure]] point(int px, int py) : x(px), y{py} {}
  // CHECK: {{^}}  {{\[\[}}perf::measure{{\]\]}} point(int px, int py) : x(px), y{py} { PERF_INSTRUMENT("point::point");}
  int x, y;
};

int main() { return point(1, 2).y + point(3, 4).x == 5 ? 0 : 1; }

// REPORT: 2 point::point
