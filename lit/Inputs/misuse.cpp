// Two misuses.
[[perf::measure]] int counter = 0;
[[perf::measure(42)]] int f() { return counter; }
[[perf::measure]] int g() { return 1; }
