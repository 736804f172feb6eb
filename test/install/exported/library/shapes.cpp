#include "shapes.hpp"
int area(int w, int h) {
  int a = 0;
  for (int i = 0; i < h; ++i) a += w;
  return a;
}
