// Input of diff_mode.test.
[[perf::measure]] int f() { return 1; }
int g() { return 2; }
int h() { return 3; }
[[perf::measure]] int i() = delete;
