// Input of summary.test: two functions measured, three skipped for two reasons.
[[perf::measure]] int f() { return 1; }
[[perf::measure]] int g() { return 2; }
[[perf::measure]] int h() = delete;
[[perf::measure]] int k() = delete;
[[perf::measure]] constexpr int c() { return 3; }
