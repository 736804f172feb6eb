#include "exit_report/test_listing.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <string_view>

namespace perf::runtime {

bool lists_tests_only(const std::vector<std::string>& arguments) {
  for (std::size_t i = 1; i < arguments.size(); ++i) {
    const std::string_view argument = arguments[i];
    // GoogleTest reads a boolean flag's value as false when it starts with 0, f or F.
    constexpr std::string_view gtest = "--gtest_list_tests";
    if (argument == gtest) return true;
    if (argument.substr(0, gtest.size() + 1) == std::string(gtest) + "=") {
      const char first = argument.size() > gtest.size() + 1 ? argument[gtest.size() + 1] : '\0';
      if (first != '0' && first != 'f' && first != 'F') return true;
      continue;
    }
    for (const std::string_view flag : {"--list-tests", "--list-test-names-only", "--list-tags", "--list-reporters",
                                        "--list-listeners", "--list-test-cases", "--list-test-suites",
                                        "--dt-list-test-cases", "--dt-list-test-suites", "--dt-list-reporters"})
      if (argument == flag) return true;
  }
  return false;
}

std::vector<std::string> process_arguments() {
  std::vector<std::string> arguments;
  const int fd = ::open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return arguments;
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(n));
  ::close(fd);
  for (std::size_t begin = 0; begin < text.size();) {
    const std::size_t end = text.find('\0', begin);
    arguments.push_back(text.substr(begin, end - begin));
    if (end == std::string::npos) break;
    begin = end + 1;
  }
  return arguments;
}

}  // namespace perf::runtime
