#pragma once
#include <vector>

class cart {
 public:
  [[perf::measure]] void add(int cents);
  [[perf::measure("cart total")]] int total() const;

 private:
  std::vector<int> items_;
};
