// Input of filter_skips.test: with --filter '.*', four functions nobody marked are
// skipped for two reasons, and a marked one cannot be measured either.
#define DEFINE_CASE(name) \
  struct name {           \
    int run() { return 1; } \
  };
DEFINE_CASE(first_case)
DEFINE_CASE(second_case)
constexpr int square(int x) { return x * x; }
constexpr int cube(int x) { return x * x * x; }
[[perf::measure]] constexpr int marked(int x) { return x + 1; }
int main() { return first_case().run() + second_case().run() + square(2) + cube(1) + marked(0); }
