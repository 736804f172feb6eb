#include "counter.hpp"
int first() { counter c; return c.next(); }
