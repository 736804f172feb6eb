#include "compare/processes.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace perf::compare_impl {

namespace {

constexpr const char* variable = "PERF_COMPARE_PROCESS";

std::vector<std::string> own_arguments() {
  std::ifstream file("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> arguments;
  std::string argument;
  while (std::getline(file, argument, '\0')) arguments.push_back(argument);
  if (arguments.empty()) throw std::runtime_error("perf::comparison: cannot read /proc/self/cmdline");
  return arguments;
}

// Runs /proc/self/exe with `arguments` and `assignment` added to the environment,
// output to /dev/null; returns its wait status.
int run_child(const std::vector<std::string>& arguments, const std::string& assignment) {
  std::vector<char*> argv;
  for (const std::string& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);
  std::vector<char*> envp;
  const std::string prefix = std::string(variable) + "=";
  for (char** entry = environ; *entry != nullptr; ++entry)
    if (std::string(*entry).rfind(prefix, 0) != 0) envp.push_back(*entry);
  envp.push_back(const_cast<char*>(assignment.c_str()));
  envp.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t child = 0;
  const int error = posix_spawn(&child, "/proc/self/exe", &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) throw std::runtime_error("perf::comparison: cannot re-execute /proc/self/exe");
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {}
  return status;
}

}  // namespace

std::optional<child_task> child_task_from_environment() {
  const char* value = std::getenv(variable);
  if (value == nullptr) return std::nullopt;
  const std::string text = value;
  const std::size_t colon = text.find(':');
  char* end = nullptr;
  const unsigned long long ordinal = std::strtoull(text.c_str(), &end, 10);
  if (colon == std::string::npos || colon == 0 || end != text.c_str() + colon || colon + 1 == text.size())
    throw std::runtime_error(std::string("perf::comparison: ") + variable + "='" + text + "' is not ORDINAL:PATH");
  return child_task{static_cast<std::size_t>(ordinal), text.substr(colon + 1)};
}

std::size_t next_run_ordinal() {
  static std::atomic<std::size_t> runs{0};
  return runs.fetch_add(1, std::memory_order_relaxed);
}

std::vector<std::vector<double>> ratios_from_children(std::size_t ordinal, int count) {
  const std::vector<std::string> arguments = own_arguments();
  std::vector<std::vector<double>> children;
  for (int child = 0; child < count; ++child) {
    char path[] = "/tmp/perf-compare-XXXXXX";
    const int descriptor = mkstemp(path);
    if (descriptor < 0) throw std::runtime_error("perf::comparison: cannot create a file in /tmp");
    close(descriptor);
    const int status = run_child(arguments, std::string(variable) + "=" + std::to_string(ordinal) + ":" + path);
    std::ifstream file(path);
    std::vector<double> ratios;
    for (double ratio; file >> ratio;) ratios.push_back(ratio);
    unlink(path);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || ratios.empty())
      throw std::runtime_error("perf::comparison: process " + std::to_string(child + 2) + " of " +
                               std::to_string(count + 1) + " ended without its ratios (status " +
                               std::to_string(status) + ")");
    children.push_back(ratios);
  }
  return children;
}

void hand_to_parent(const child_task& task, const comparison_result& result) {
  std::ostringstream text;
  text.precision(17);
  for (const compared& row : result.rows) text << row.ratio << "\n";
  std::ofstream file(task.output, std::ios::trunc);
  file << text.str();
  file.close();
  std::_Exit(file ? 0 : 1);
}

}  // namespace perf::compare_impl
