// Selection by --filter, label and the annotate spelling.
namespace app {
int helper();
int parse(int x) { return x; }
int run() { return parse(1); }
int skip_me() { return 0; }
}
[[perf::measure("hot path")]] int hot() { return 1; }
[[clang::annotate("perf::measure")]] int annotated() { return 2; }
[[perf::measure]] int declared_measured();
int declared_measured() { return 3; }
int main() { return app::run() + hot() + annotated() + declared_measured() + app::skip_me() == 7 ? 0 : 1; }
