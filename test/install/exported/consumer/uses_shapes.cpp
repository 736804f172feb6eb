#include <iostream>

#include "shapes.hpp"

int main() {
  std::cout << area(3, 4) << "\n";
  return area(3, 4) == 12 ? 0 : 1;
}
