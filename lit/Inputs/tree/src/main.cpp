#include <shop/cart.hpp>
int checkout(shop::cart& c);
int main() {
  shop::cart c;
  for (int i = 0; i < 4; ++i) c.add(100);
  return checkout(c) == 480 ? 0 : 1;
}
