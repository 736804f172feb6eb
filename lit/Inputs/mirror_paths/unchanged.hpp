// No function here is measured: its mirror is a plain copy.
#include <cassert>

__attribute__((noinline)) inline const char* unchanged_file() { return __FILE__; }
__attribute__((noinline)) inline const char* unchanged_builtin_file() { return __builtin_FILE(); }
__attribute__((noinline)) inline void unchanged_check(int arguments) { assert(arguments < 2); }
