// README's first example, marked in every spelling: it compiles warning-free at
// -Wall -Wextra -Werror in the plain build and the instrumented one (marks.cmake).
#include <string>
#include <vector>

struct token {
  std::string text;
};

[[perf::measure]] std::vector<token> lex(const std::string& text) {
  std::vector<token> tokens;
  std::string::size_type start = 0;
  while (start < text.size()) {
    std::string::size_type end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) tokens.push_back(token{text.substr(start, end - start)});
    start = end + 1;
  }
  return tokens;
}

[[perf::measure("count tokens")]] std::size_t count(const std::string& text) { return lex(text).size(); }

[[clang::annotate("perf::measure")]] bool empty(const std::string& text) { return count(text) == 0; }

[[clang::annotate("perf::measure", "first token")]] std::string first(const std::string& text) {
  return empty(text) ? std::string() : lex(text).front().text;
}
