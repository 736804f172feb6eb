// Reading a profile with pprof itself (Debian's golang-go, which scripts/setup.sh
// installs; the test programs get its path as PERF_GO): the tests of every pprof
// profile the runtime writes.
#ifndef PERF_TEST_RUNTIME_GO_PPROF_HPP
#define PERF_TEST_RUNTIME_GO_PPROF_HPP

#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "probe_runner.hpp"

namespace perf::testing {

// Runs a shell command; its stdout and stderr together.
inline probe_result run_command(const std::string& command) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  probe_result result;
  char buffer[4096];
  while (const size_t n = fread(buffer, 1, sizeof buffer, pipe)) result.output.append(buffer, n);
  result.status = pclose(pipe);
  return result;
}

// `go tool pprof ARGS` with $HOME in `home` (pprof keeps the profiles it fetches under
// $HOME/pprof), killed after two minutes: a hung pprof fails the test instead of CI.
inline probe_result go_tool_pprof(const std::string& args, const std::filesystem::path& home) {
  return run_command("HOME=" + home.string() + " timeout 120 " PERF_GO " tool pprof " + args);
}

// A row of `go tool pprof -top`: its flat value as printed, its cumulative share of
// the total (percent) and the function's name.
struct pprof_top_row {
  std::string flat;
  double cum_percent = 0;
  std::string name;
};

// The rows of `-top` output, in its order (the largest flat value first): the lines
// after "      flat  flat%   sum%        cum   cum%".
inline std::vector<pprof_top_row> pprof_top_rows(const std::string& output) {
  std::vector<pprof_top_row> rows;
  const size_t header = output.find("flat  flat%");
  if (header == std::string::npos) return rows;
  std::istringstream lines(output.substr(output.find('\n', header) + 1));
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    pprof_top_row row;
    std::string flat_percent, sum, cum, cum_percent;
    if (!(fields >> row.flat >> flat_percent >> sum >> cum >> cum_percent)) break;
    row.cum_percent = std::stod(cum_percent);  // "50.25%": the number before the sign
    std::getline(fields >> std::ws, row.name);
    rows.push_back(row);
  }
  return rows;
}

}  // namespace perf::testing

#endif  // PERF_TEST_RUNTIME_GO_PPROF_HPP
