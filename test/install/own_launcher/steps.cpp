[[perf::measure]] int step(int n) { return n + 1; }
