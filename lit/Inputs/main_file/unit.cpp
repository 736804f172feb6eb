// A unit whose own class derives from a type of its anonymous namespace: GCC warns
// about it (-Wsubobject-linkage) only where it takes the unit's file for a header.
#include <cstdio>

#include "widget.hpp"

namespace {
struct base {
  virtual ~base() {}
};
}  // namespace

struct derived : base {};

int main() {
  int unused;
  derived d;
  (void)d;
  std::printf("%s\n%s\n", __FILE__, __BASE_FILE__);
  return 0;
}
