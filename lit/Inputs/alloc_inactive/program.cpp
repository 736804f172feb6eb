// A measured function that allocates, in a program that may link tcmalloc itself.
#include <string>

[[perf::measure]] std::size_t build(int n) {
  std::string text(static_cast<std::size_t>(n) * 100, 'x');
  return text.size();
}

int main() { return build(3) == 300 ? 0 : 1; }
