// A header-only build test: the library's source under another namespace name.
#define lib libh
#include "lib.cpp"
#undef lib
