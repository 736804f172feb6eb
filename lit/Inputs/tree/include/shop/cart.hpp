// A project header beside src/, found through -I include.
#pragma once
#include "shop/price.hpp"
namespace shop {
struct cart {
  [[perf::measure]] void add(int cents) { total += with_tax(cents); }
  int total = 0;
};
}  // namespace shop
