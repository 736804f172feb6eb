// split_shell_words: `perf-report ab --new 'env SLOW=1 ./app in'` split as a shell
// splits words, and what would need a shell refused with its place named.
#include <gtest/gtest.h>

#include <sstream>

#include "command_line.hpp"
#include "parsed_report.hpp"
#include "shell_words.hpp"

namespace perf::perf_report {
namespace {

std::string refusal(const std::string& line) {
  try {
    split_shell_words(line);
  } catch (const input_error& e) { return e.what(); }
  return "(accepted)";
}

TEST(ShellWords, SplitsAsAShellDoes) {
  using words = std::vector<std::string>;
  EXPECT_EQ(split_shell_words("env SLOW=1 ./app input"), (words{"env", "SLOW=1", "./app", "input"}));
  EXPECT_EQ(split_shell_words("  a\t b\n"), (words{"a", "b"}));
  EXPECT_EQ(split_shell_words("./app 'two words' x'y'z ''"), (words{"./app", "two words", "xyz", ""}));
  EXPECT_EQ(split_shell_words(R"(say "a \"q\" \$x \\ \n" 'no \escape')"),
            (words{"say", R"(a "q" $x \ \n)", R"(no \escape)"}));
  EXPECT_EQ(split_shell_words(R"(back\ slash \'q\')"), (words{"back slash", "'q'"}));
  EXPECT_EQ(split_shell_words("a 'x|y' \"m;n\" p\\|q"), (words{"a", "x|y", "m;n", "p|q"}));
}

TEST(ShellWords, RefusesWhatItCannotSplitNamingTheProblem) {
  EXPECT_EQ(refusal("./app 'input"), "unterminated single quote at character 7 of './app 'input'");
  EXPECT_EQ(refusal("./app \"input"), "unterminated double quote at character 7 of './app \"input'");
  EXPECT_EQ(refusal("./app \\"), "a backslash ends './app \\', escaping nothing");
  EXPECT_EQ(refusal("  "), "'  ' holds no command");
  EXPECT_EQ(refusal("./app | tee out"),
            "unquoted '|' at character 7 of './app | tee out': the command runs without a shell (quote the "
            "character, or run one: sh -c '...')");
  EXPECT_EQ(refusal("./app $HOME").substr(0, 26), "unquoted '$' at character ");
}

TEST(ShellWords, AnUnterminatedQuoteOnTheCommandLineExitsWithStatusTwo) {
  std::ostringstream out, err;
  EXPECT_EQ(run_command_line({"ab", "--base", "./app 'x", "--new", "./app"}, out, err), 2);
  EXPECT_EQ(err.str(), "perf-report: --base: unterminated single quote at character 7 of './app 'x'\n");
  EXPECT_EQ(out.str(), "");
}

}  // namespace
}  // namespace perf::perf_report
