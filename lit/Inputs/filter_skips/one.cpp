#include "cases.hpp"
DEFINE_CASE(one_case)
int one() { return first_case().run() + one_case().run() + square(2) + marked(0); }
