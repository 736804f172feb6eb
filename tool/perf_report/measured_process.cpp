#include "measured_process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "parsed_report.hpp"

extern char** environ;

namespace perf::perf_report {

void run_measured(const std::vector<std::string>& command, const std::string& report_path, const std::string& side) {
  const std::string shown = fmt::format("{} '{}'", side, fmt::join(command, " "));
  std::vector<std::string> environment;
  for (char** e = environ; *e != nullptr; ++e)
    if (std::strncmp(*e, "PERF_REPORT=", 12) != 0) environment.emplace_back(*e);
  environment.push_back("PERF_REPORT=" + report_path);
  std::vector<char*> argv, envp;
  for (const std::string& word : command) argv.push_back(const_cast<char*>(word.c_str()));
  for (const std::string& variable : environment) envp.push_back(const_cast<char*>(variable.c_str()));
  argv.push_back(nullptr), envp.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int failed = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (failed != 0) throw input_error(fmt::format("{}: cannot start {}: {}", shown, command[0], std::strerror(failed)));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw input_error(fmt::format("{}: waiting for it: {}", shown, std::strerror(errno)));
  if (WIFSIGNALED(status))
    throw input_error(fmt::format("{}: ended by signal {} ({})", shown, WTERMSIG(status), strsignal(WTERMSIG(status))));
  if (WEXITSTATUS(status) != 0) throw input_error(fmt::format("{}: exited with status {}", shown, WEXITSTATUS(status)));
  if (!std::filesystem::exists(report_path))
    throw input_error(fmt::format(
        "{}: wrote no report (is the program measured by perf-instrument? PERF_REPORT was {})", shown, report_path));
}

}  // namespace perf::perf_report
