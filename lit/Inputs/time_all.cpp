// Two hot functions whose every call --time-all times, and their caller.
[[perf::measure]] int hot_step(int x) { return x + 1; }
[[perf::measure]] constexpr int hot_constant(int x) { return x * 2; }
[[perf::measure]] int caller() {
  int sum = 0;
  for (int i = 0; i < 3; ++i) sum += hot_step(i) + hot_constant(i);
  return sum;
}
int main() {
  static_assert(hot_constant(2) == 4, "still a constant expression");
  return caller() == 12 ? 0 : 1;
}
