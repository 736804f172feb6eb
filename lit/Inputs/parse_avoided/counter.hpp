// Input of launch_parse_avoided.test: the one marked function, in a header.
#pragma once
#include "util.hpp"
struct counter {
  [[perf::measure]] int next() { return value = add(value, 1); }
  int value = 0;
};
