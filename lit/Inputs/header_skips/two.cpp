#include "limits.hpp"
int two() { return limit(); }
