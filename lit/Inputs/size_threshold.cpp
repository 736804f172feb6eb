// Input of the size_threshold tests: functions of every size, most selected by --filter.
namespace app {
struct box {
  int get() const { return value; }
  int value = 0;
};
int twice(int x) { return x + x; }
int sum(const int* v, int n) { int s = 0; for (int i = 0; i < n; ++i) s += v[i]; return s; }
int depth(int n) { return n > 0 ? depth(n - 1) : 0; }
int mix(int a, int b, int c) { int t = a * b + c; t ^= t >> 3; t += a - b * c; return t * (t + 1) - a; }
[[perf::measure]] int one() { return 1; }
}  // namespace app

int main() {
  const int v[] = {1, 2, 3};
  app::box b;
  return app::sum(v, 3) + app::depth(2) + app::mix(1, 2, 3) + app::twice(b.get()) + app::one() - 6;
}
