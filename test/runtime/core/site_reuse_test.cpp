// A plugin loaded and unloaded again and again: its site keeps one id, so its calls
// stay in one row, exact, and reloading never reaches the limit of site ids.
// Drives plugin_probe with measured_plugin.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

#include "probe_runner.hpp"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using SiteReuse = perf::testing::ProbeTest;

TEST_F(SiteReuse, APluginLoadedTwoThousandTimesKeepsOneSiteAndOneRowWithEveryCall) {
  // 2,000 cycles take well under a second; 100,000 took 13 s on the dev VM, and ids
  // that were not reused would show from the second cycle on.
  const fs::path report = dir / "report.json";
  const perf::testing::probe_result result =
      perf::testing::run_probe_program(PERF_PLUGIN_PROBE, "PERF_SAMPLE_HZ=0 PERF_REPORT=" + report.string(),
                                       std::string(PERF_MEASURED_PLUGIN) + " 2000");
  ASSERT_EQ(result.status, 0) << result.output;  // 3: the plugin stayed loaded
  EXPECT_EQ(result.output, "sites: 1\n");
  const json functions = json::parse(perf::testing::read_file(report)).at("functions");
  ASSERT_EQ(functions.size(), 1u);
  EXPECT_EQ(functions[0].at("name"), "measured_plugin_work");
  EXPECT_EQ(functions[0].at("calls"), 2000);
}

TEST_F(SiteReuse, SamplesInAPluginUnloadedSinceAreChargedToThePluginNotToItsCaller) {
  const fs::path report = dir / "report.json";
  const perf::testing::probe_result result =
      perf::testing::run_probe_program(PERF_PLUGIN_PROBE, "PERF_SAMPLE_HZ=1000 PERF_REPORT=" + report.string(),
                                       std::string(PERF_MEASURED_PLUGIN) + " spin");
  ASSERT_EQ(result.status, 0) << result.output;  // 3: the plugin stayed loaded
  const json samples = json::parse(perf::testing::read_file(report)).at("samples");
  ASSERT_GE(samples.at("total").get<int>(), 100) << samples.dump();
  // The plugin's code has no symbol left to name it by once unmapped: its module and
  // offset name it, and the program's main, which called it, gets none of it (main's
  // own few instructions around the call may take a sample of their own).
  const std::string plugin = fs::path(PERF_MEASURED_PLUGIN).filename().string();
  const json& top = samples.at("top").at(0);
  EXPECT_EQ(top.at("function").get<std::string>().rfind(plugin + "+0x", 0), 0u) << samples.dump();
  EXPECT_NE(top.at("function").get<std::string>().find(" (unloaded)"), std::string::npos) << samples.dump();
  // Unmapped, its code is named by address: the loop's two or three instructions are
  // rows of their own, which together hold the plugin's share.
  double plugin_share = 0;
  for (const json& function : samples.at("top")) {
    const std::string name = function.at("function").get<std::string>();
    if (name.rfind(plugin + "+0x", 0) == 0 && name.find(" (unloaded)") != std::string::npos)
      plugin_share += function.at("share").get<double>();
  }
  EXPECT_GT(plugin_share, 0.9) << samples.dump();
  for (const json& function : samples.at("top")) {
    if (function.at("function") == "main") { EXPECT_LT(function.at("share").get<double>(), 0.05) << samples.dump(); }
  }
}

}  // namespace
