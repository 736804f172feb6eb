int step(int n);

[[perf::measure]] int run(int times) {
  int n = 0;
  for (int i = 0; i < times; ++i) n = step(n);
  return n;
}

int main() { return run(4) == 4 ? 0 : 1; }
