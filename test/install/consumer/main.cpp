#include <perf/perf.hpp>

static int square(int x) {
  PERF_MEASURE("consumer::square");
  return x * x;
}

int main() {
  int sum = 0;
  for (int i = 0; i < 12; ++i) sum += square(i);
  return sum == 506 ? 0 : 1;
}
