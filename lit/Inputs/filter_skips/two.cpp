#include "cases.hpp"
DEFINE_CASE(two_case)
int two() { return second_case().run() + two_case().run(); }
