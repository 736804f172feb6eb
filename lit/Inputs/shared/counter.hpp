#pragma once
struct counter {
  [[perf::measure]] int next() { return ++value; }
  int value = 0;
};
