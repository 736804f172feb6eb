// GCC compiles this; Clang does not know __builtin_has_attribute.
[[noreturn]] void stop();
[[perf::measure]] int answer() { return __builtin_has_attribute(stop, noreturn) ? 42 : 0; }
int main() { return answer() == 42 ? 0 : 1; }
