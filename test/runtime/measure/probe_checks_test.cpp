// The probe's cost checked while the program runs (measure/probe_checks.hpp): a
// program that runs for a while checks it every second, and its report says what the
// checks found; a floor far below the probe, as a host that slowed down since leaves
// it, is found in every check.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

#include "measure/probe_floor.hpp"
#include "measure/quartered_floor.hpp"
#include "probe_runner.hpp"

namespace perf::runtime {
namespace {

struct probe_check_run : ::testing::Test {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("probe_checks_test_" + std::to_string(getpid()));
  std::filesystem::path floor = dir / "probe-floor";
  double wall_ms = 0;  // the last run's
  void SetUp() override { std::filesystem::create_directories(dir); }
  void TearDown() override { std::filesystem::remove_all(dir); }

  // Runs timing_probe for `ms` ms beyond its 200,000 calls, its floor kept in `floor`,
  // its report written to `report`; returns its output.
  std::string run(const std::string& environment, int ms, const std::filesystem::path& report) {
    const auto start = std::chrono::steady_clock::now();
    const perf::testing::probe_result result = perf::testing::run_probe_program(
        PERF_TIMING_PROBE, environment + " PERF_PROBE_FLOOR=" + floor.string() + " PERF_REPORT=" + report.string(),
        std::to_string(ms));
    wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    EXPECT_TRUE(WIFEXITED(result.status) && WEXITSTATUS(result.status) == 0) << result.output;
    return result.output;
  }
  nlohmann::json run_json(const std::string& environment, int ms) {
    const std::filesystem::path report = dir / "report.json";
    run(environment, ms, report);
    return nlohmann::json::parse(perf::testing::read_file(report));
  }
};

// 2.5 s of calls: a check every second from when the thread is a second old, never more.
TEST_F(probe_check_run, AProgramThatRunsAWhileChecksItsProbeEverySecond) {
  const nlohmann::json report = run_json("", 2500);
  const nlohmann::json& checks = report.at("probe_checks");
  EXPECT_GE(checks.at("checks").get<uint64_t>(), 1u) << checks;
  EXPECT_LE(checks.at("checks").get<double>(), wall_ms / 1000) << checks;
  EXPECT_LE(checks.at("above").get<uint64_t>(), checks.at("checks").get<uint64_t>()) << checks;
  EXPECT_GT(checks.at("highest_ns").get<double>(), 0) << checks;
}

// A floor a quarter of this build's probe in the file: the program states and
// subtracts it, and every check finds the probe above it, at about four times it.
TEST_F(probe_check_run, EveryCheckFindsTheProbeAboveAFloorFarBelowItAndTheReportSaysSo) {
  // A process keeps a floor once its calibration confirms one: three processes at most.
  for (int i = 0; i < 3 && !std::filesystem::exists(floor); ++i) run("", 0, "off");
  const std::string written = perf::testing::read_file(floor);
  const std::string key = written.substr(0, written.find(' '));
  const std::optional<kept_floor> kept = read_probe_floor(floor.string(), key);
  ASSERT_TRUE(kept.has_value()) << written;
  ASSERT_EQ(write_probe_floor(floor.string(), key, quartered(*kept)), "");
  const nlohmann::json report = run_json("", 2500);
  const nlohmann::json& checks = report.at("probe_checks");
  EXPECT_GE(checks.at("checks").get<uint64_t>(), 1u) << checks;
  EXPECT_EQ(checks.at("above"), checks.at("checks")) << checks;
  EXPECT_GE(checks.at("highest_ns").get<double>(), 2 * report.at("clock").at("probe_ns").get<double>()) << report;

  // The text report's line: every check above, the figures as the clock line gives them.
  const std::filesystem::path text = dir / "report.txt";
  run("", 2500, text);
  const std::string report_text = perf::testing::read_file(text);
  const size_t at = report_text.find("\nprobe checked ");
  ASSERT_NE(at, std::string::npos) << report_text;
  const std::string line = report_text.substr(at + 1, report_text.find('\n', at + 1) - at - 1);
  const std::string count = line.substr(14, line.find(' ', 14) - 14);
  const std::string said = "probe checked " + count + (count == "1" ? " time" : " times") +
                           " while the program ran: " + count + " (100.0%) found it more than 15% above its start-up ";
  EXPECT_EQ(line.substr(0, said.size()), said) << line;
  const std::string end = " (a slower host or a busy core): calls a few probe costs long read long then";
  ASSERT_GT(line.size(), end.size()) << line;
  EXPECT_EQ(line.substr(line.size() - end.size()), end) << line;
  EXPECT_NE(line.find(" ns, up to "), std::string::npos) << line;
}

// PERF_COMPENSATE=off subtracts nothing: there is nothing to check, and nothing is.
TEST_F(probe_check_run, WithoutCompensationNothingIsChecked) {
  const nlohmann::json report = run_json("PERF_COMPENSATE=off", 1500);
  EXPECT_EQ(report.at("probe_checks"), nlohmann::json::parse(R"({"checks": 0, "above": 0, "highest_ns": 0})"));
}

}  // namespace
}  // namespace perf::runtime
