// Running the probe programs of the runtime tests with a chosen PERF_* environment.
#ifndef PERF_TEST_RUNTIME_PROBE_RUNNER_HPP
#define PERF_TEST_RUNTIME_PROBE_RUNNER_HPP

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace perf::testing {

struct probe_result {
  int status = 0;      // as waitpid() gives it
  std::string output;  // stderr (stdout is discarded)
};

// The shell command that runs `program args` with every PERF_* variable unset, then
// `environment` set (e.g. "PERF_REPORT=off PERF_TICKS=off"), its stderr to the pipe
// and its stdout discarded.
inline std::string probe_command(const std::string& program, const std::string& environment, const std::string& args) {
  return "env -u PERF_REPORT -u PERF_CLOCK -u PERF_TICKS -u PERF_RING_EVENTS -u PERF_TICKLOG "
         "-u PERF_TRACE -u PERF_TRACE_STREAM -u PERF_CAPTURE -u PERF_CAPTURE_WINDOW -u PERF_CAPTURE_RATE -u "
         "PERF_CAPTURE_DIR -u PERF_HEAP_SAMPLE -u PERF_TIMING " +
         environment + " " + program + " " + args + " 2>&1 >/dev/null";
}

// Runs `program args` as probe_command() says.
inline probe_result run_probe_program(const std::string& program, const std::string& environment,
                                      const std::string& args = "") {
  FILE* pipe = popen(probe_command(program, environment, args).c_str(), "r");
  probe_result result;
  char buffer[4096];
  while (const size_t n = fread(buffer, 1, sizeof buffer, pipe)) result.output.append(buffer, n);
  result.status = pclose(pipe);
  return result;
}

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A private copy of the character device `major`:`minor` (1:3 is /dev/null, 1:7
// /dev/full), so that no test writes to the system's /dev. Needs root: fails the
// test, not skips it, without.
inline void make_character_device(const std::filesystem::path& path, unsigned major, unsigned minor) {
  ASSERT_EQ(::mknod(path.c_str(), S_IFCHR | 0666, makedev(major, minor)), 0)
      << "mknod " << path << ": " << std::strerror(errno) << " (the test needs to run as root)";
}

// Expects a probe's `status` (as run_probe_program gives it) to say it was killed by
// `signal`, as the shell that ran it reports that; under a sanitizer, whose own
// handler, chained after the runtime's, ends the program, only that it failed.
inline void expect_killed_by(int status, int signal) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  (void)signal;
  EXPECT_NE(status, 0);
#else
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 128 + signal) << "status " << status;
#endif
}

// A test with a fresh directory of its own, removed afterwards.
class ProbeTest : public ::testing::Test {
 protected:
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("perf-probe-" + std::to_string(getpid()) + "-" +
                                                ::testing::UnitTest::GetInstance()->current_test_info()->name());
  void SetUp() override { std::filesystem::create_directories(dir); }
  void TearDown() override { std::filesystem::remove_all(dir); }
};

}  // namespace perf::testing

#endif  // PERF_TEST_RUNTIME_PROBE_RUNNER_HPP
