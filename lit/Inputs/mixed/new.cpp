#include "square.hpp"
static_assert(square(3) == 9, "still a constant expression");
int main() { return square(2) + twice(1) == 6 ? 0 : 1; }
