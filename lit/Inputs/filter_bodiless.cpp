#define TEST_CLASS(name) struct name { name() = default; int run(); }
TEST_CLASS(case_one);
int case_one::run() { return 1; }
struct value {
  value() = default;
  value(const value&) = delete;
  [[perf::measure]] ~value() = default;
  int get() const { return 2; }
  value& operator=(const value&);
};
value& value::operator=(const value&) = default;
int main() { return case_one().run() + value().get() == 3 ? 0 : 1; }
