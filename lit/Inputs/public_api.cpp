// Every public header and macro in use, for the standards test.
#include <perf/perf.hpp>

#include <string>

int measured(int x) {
  PERF_MEASURE("measured");
  perf::tick(x);
  perf::tick(x, "label");
  const std::string text = "from a string";
  perf::tick(x, text.data(), text.size());
#if __cplusplus >= 201703L
  perf::tick(x, std::string_view(text));
#endif
  return x + 1;
}

int quiet(int x) {
  PERF_MEASURE_NO_TICKS("quiet");
  return x * 2;
}

int main() {
  const int result = quiet(measured(1));
  perf::dump_ticks("/dev/null");
  return perf::take_snapshot().functions.size() == 2 && result == 4 ? 0 : 1;
}
