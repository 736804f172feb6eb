#include "shell_words.hpp"

#include <cstring>

#include <fmt/format.h>

#include "parsed_report.hpp"

namespace perf::perf_report {

std::vector<std::string> split_shell_words(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;  // a word has begun (an empty '' is a word)
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(word), word.clear(), in_word = false;
    } else if (c == '\'') {
      const size_t end = line.find('\'', i + 1);
      if (end == std::string::npos)
        throw input_error(fmt::format("unterminated single quote at character {} of '{}'", i + 1, line));
      word.append(line, i + 1, end - i - 1), in_word = true, i = end;
    } else if (c == '"') {
      size_t j = i + 1;
      for (; j < line.size() && line[j] != '"'; ++j) {
        if (line[j] == '\\' && j + 1 < line.size() && std::strchr("\"\\$`\n", line[j + 1])) {
          if (line[++j] != '\n') word += line[j];
        } else {
          word += line[j];
        }
      }
      if (j == line.size())
        throw input_error(fmt::format("unterminated double quote at character {} of '{}'", i + 1, line));
      in_word = true, i = j;
    } else if (c == '\\') {
      if (i + 1 == line.size()) throw input_error(fmt::format("a backslash ends '{}', escaping nothing", line));
      if (line[++i] != '\n') word += line[i], in_word = true;
    } else if (c != '\0' && std::strchr("|&;<>()$`", c)) {
      throw input_error(fmt::format(
          "unquoted '{}' at character {} of '{}': the command runs without a shell (quote the character, or "
          "run one: sh -c '...')",
          c, i + 1, line));
    } else {
      word += c, in_word = true;
    }
  }
  if (in_word) words.push_back(word);
  if (words.empty()) throw input_error(fmt::format("'{}' holds no command", line));
  return words;
}

}  // namespace perf::perf_report
