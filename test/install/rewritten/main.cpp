#include "cart.hpp"

int main() {
  cart c;
  for (int i = 1; i <= 10; ++i) c.add(i * 100);
  return c.total() == 5500 && c.total() == 5500 ? 0 : 1;
}
