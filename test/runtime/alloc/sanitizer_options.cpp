// The sanitizer options of the allocation tests, built in: ctest's PRE_TEST test
// discovery keeps only the first variable of an ENVIRONMENT list.
// allocator_may_return_null: the tests ask for impossible sizes and expect null.
extern "C" {
__attribute__((used)) const char* __asan_default_options() { return "detect_leaks=1:allocator_may_return_null=1"; }
__attribute__((used)) const char* __ubsan_default_options() { return "print_stacktrace=1:halt_on_error=1"; }
__attribute__((used)) const char* __tsan_default_options() { return "halt_on_error=1:allocator_may_return_null=1"; }
}
