// The sanitizers' options, built into every test program and probe of the runtime:
// ctest's PRE_TEST test discovery keeps only the first variable of an ENVIRONMENT
// list, so options set there never reached the tests. A variable set by hand
// (ASAN_OPTIONS=...) still overrides these.
// allocator_may_return_null: the allocation tests ask for impossible sizes and expect null.
extern "C" {
__attribute__((used)) const char* __asan_default_options() { return "detect_leaks=1:allocator_may_return_null=1"; }
__attribute__((used)) const char* __ubsan_default_options() { return "print_stacktrace=1:halt_on_error=1"; }
__attribute__((used)) const char* __tsan_default_options() {
  return "halt_on_error=1:second_deadlock_stack=1:allocator_may_return_null=1";
}
}
