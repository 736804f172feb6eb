// A fixture owning a fresh directory under the system's temporary directory, named
// after the test suite and the process, created before each test and removed after it.
#ifndef PERF_TEST_TOOL_SCRATCH_DIRECTORY_HPP
#define PERF_TEST_TOOL_SCRATCH_DIRECTORY_HPP

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace perf::tool {

class ScratchDirectory : public ::testing::Test {
 protected:
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("perf-" + std::string(::testing::UnitTest::GetInstance()->current_test_suite()->name()) + "-" +
       std::to_string(::getpid()));
  void SetUp() override { std::filesystem::create_directories(dir); }
  void TearDown() override { std::filesystem::remove_all(dir); }
};

}  // namespace perf::tool

#endif  // PERF_TEST_TOOL_SCRATCH_DIRECTORY_HPP
