// The filter measures changed_file: its mirror is instrumented.
__attribute__((noinline)) inline const char* changed_file() { return __FILE__; }
