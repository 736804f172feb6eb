#include "square.hpp"
int old_twice() { return twice(square(1)); }
