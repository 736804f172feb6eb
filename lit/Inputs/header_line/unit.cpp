// A unit with an empty line among its leading ones: in place, the header takes it.
#include "guarded.hpp"

[[perf::measure]] int twice(int x) {
  int unused;
  return guarded(x) * 2;
}

int main() { return twice(1) == 2 ? 0 : 1; }
