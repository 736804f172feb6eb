// An unrelated project's program: a mark that its plain build compiles quietly at
// -Werror (the options come with perf::runtime, or pkg-config's Cflags), and a function
// measured by hand. Built by CMake (CMakeLists.txt), a plain Makefile and Meson
// (consumer.cmake, pkgconfig.cmake).
#include <perf/perf.hpp>

[[perf::measure]] static int cube(int x) { return x * x * x; }

static int square(int x) {
  PERF_MEASURE("consumer::square");
  return x * x;
}

int main() {
  int sum = 0;
  for (int i = 0; i < 12; ++i) sum += square(i);
  return sum == 506 && cube(2) == 8 ? 0 : 1;
}
