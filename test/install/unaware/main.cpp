#include "geometry.hpp"

int main() {
  double total = 0;
  geometry::square s{1};
  for (int i = 0; i < 3; ++i) {
    s = geometry::scaled(s, 2);
    total += geometry::area(s) + s.perimeter();
  }
  return total > 0 ? 0 : 1;
}
