// The endpoint in a program that closes descriptors it did not open: the runtime
// never writes to or closes a number it no longer owns, and the program exits.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "probe_runner.hpp"

namespace {

namespace fs = std::filesystem;
using Descriptors = perf::testing::ProbeTest;

// A daemon's closefrom(3) closed the endpoint's descriptors, and the files it opened
// next took their numbers. Before: the exit wrote the 8 bytes of an eventfd's
// wake-up into one of them, then waited forever for the server thread.
TEST_F(Descriptors, ADaemonThatClosesEveryInheritedDescriptorKeepsItsFilesAndExits) {
  const fs::path socket = dir / "perf.sock";
  // The program's closefrom(3) and open() race, by nature, with the server thread's
  // check of its descriptors, which TSan, tracking descriptors as memory, reports:
  // that race is what is tested.
  const fs::path suppressions = dir / "tsan.supp";
  std::ofstream(suppressions) << "race:perf::runtime::owned_descriptor::still_ours\n";
  const perf::testing::probe_result result = perf::testing::run_probe_program(
      "timeout -s KILL 10 " PERF_CLOSING_DAEMON_PROBE,
      "TSAN_OPTIONS=suppressions=" + suppressions.string() + " PERF_REPORT=off PERF_LISTEN=" + socket.string(),
      dir.string() + " " + socket.string());
  ASSERT_EQ(result.status, 0) << "killed after 10 s, or failed:\n" << result.output;
  const size_t stopped = result.output.find("stopped in ");
  ASSERT_NE(stopped, std::string::npos) << result.output;
  // Stopping waits for the server thread for at most a second.
  EXPECT_LT(std::stol(result.output.substr(stopped + 11)), 2000) << result.output;
  EXPECT_EQ(result.output.find("descriptor "), std::string::npos) << result.output;
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(perf::testing::read_file(dir / ("data" + std::to_string(i))), "program data " + std::to_string(i) + "\n")
        << "data" << i;
}

}  // namespace
