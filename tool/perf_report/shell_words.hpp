// A command line given as one string (`perf-report ab --new 'env SLOW=1 ./app in'`)
// split into words as a POSIX shell splits them, without running a shell.
#ifndef PERF_REPORT_TOOL_SHELL_WORDS_HPP
#define PERF_REPORT_TOOL_SHELL_WORDS_HPP

#include <string>
#include <vector>

namespace perf::perf_report {

// Words are separated by unquoted blanks (space, tab, newline). 'single quotes' keep
// everything literally; "double quotes" too, but for \" \\ \$ \` (the character) and
// backslash-newline (nothing); an unquoted backslash keeps the next character. Shell
// syntax that would need a shell (unquoted | & ; < > ( ) $ `) is refused rather than
// passed on as a word, as are an unterminated quote, a trailing backslash and a line
// with no word: input_error naming the problem and where.
std::vector<std::string> split_shell_words(const std::string& line);

}  // namespace perf::perf_report

#endif  // PERF_REPORT_TOOL_SHELL_WORDS_HPP
