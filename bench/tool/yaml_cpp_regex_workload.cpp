// The regular-expression matching that dominated yaml-cpp's measured test suite
// (RegExTest_OperatorOr and friends), as a program of its own.
#include "regex_yaml.h"

#include <cstdio>
#include <string>

int main() {
  using YAML::RegEx;
  const RegEx letter = RegEx('a', 'z') | RegEx('A', 'Z');
  const RegEx word = letter + (letter | RegEx('0', '9') | RegEx('_'));
  const RegEx blank = RegEx(" \t", YAML::REGEX_OR);
  const RegEx not_blank = !blank & (RegEx('-') | letter);
  const std::string inputs[] = {"ab", "Z9", "a_", "- x", " b", "9a", "xy z", "\tq"};
  long matched = 0;
  for (int round = 0; round < 300000; ++round)
    for (const std::string& input : inputs) matched += word.Match(input) + blank.Match(input) + not_blank.Match(input);
  std::printf("%ld\n", matched);
  return 0;
}
