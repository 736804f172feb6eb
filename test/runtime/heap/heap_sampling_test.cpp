// The heap sampler (PERF_HEAP_SAMPLE), end to end: heap_probe's known sites in its
// JSON and text reports.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

#include "probe_runner.hpp"

namespace {

using json = nlohmann::json;
using perf::testing::read_file;

constexpr double mib = 1 << 20;

class HeapSampling : public perf::testing::ProbeTest {
 protected:
  // The probe's JSON report, run in `mode` with PERF_HEAP_SAMPLE=`sample` ("" leaves it unset).
  json report(const std::string& mode, const std::string& sample) {
    const std::string path = (dir / "report.json").string();
    const perf::testing::probe_result result = perf::testing::run_probe_program(
        PERF_HEAP_PROBE, "PERF_REPORT=" + path + (sample.empty() ? "" : " PERF_HEAP_SAMPLE=" + sample), mode);
    EXPECT_EQ(result.status, 0) << result.output;
    EXPECT_EQ(result.output, "");
    return json::parse(read_file(path));
  }
};

// The site whose innermost program frame is `function`; null if none.
const json* site_of(const json& report, const std::string& function) {
  for (const json& site : report.at("allocation_sites"))
    if (!site.at("stack").empty() && site.at("stack")[0].get<std::string>().rfind(function + "(", 0) == 0) return &site;
  return nullptr;
}

// Within `tolerance` (relative) of `truth`.
testing::AssertionResult near(double estimate, double truth, double tolerance) {
  if (std::fabs(estimate - truth) <= tolerance * truth) return testing::AssertionSuccess();
  return testing::AssertionFailure() << estimate << " is not within " << tolerance * 100 << "% of " << truth;
}

// heap_probe's sites request these (its blocks sum to just past each total; the
// largest block is 256 KiB, 0.3% of the smallest total).
constexpr double heavy_bytes = 800 * mib, light_bytes = 80 * mib, leaked_bytes = 64 * mib;

// 1 GB at a sample every 16 KiB: a site's estimate has a relative standard deviation
// of at most sqrt(16 KiB / its bytes) (docs/allocations.md, "Sampling"): 1.4% for the
// light site's 80 MiB, 1.6% for the leak's 64 MiB, so 10% is over 6 of them.
TEST_F(HeapSampling, EstimatesEachKnownSiteWithinTenPercent) {
  const json r = report("known_sites", "16384");
  const json* heavy = site_of(r, "(anonymous namespace)::heavy_site");
  const json* light = site_of(r, "(anonymous namespace)::light_site");
  const json* leaky = site_of(r, "(anonymous namespace)::leaky_site");
  ASSERT_TRUE(heavy && light && leaky) << r.at("allocation_sites").dump(2);
  EXPECT_TRUE(near(heavy->at("bytes").get<double>(), heavy_bytes, 0.1));
  EXPECT_TRUE(near(light->at("bytes").get<double>(), light_bytes, 0.1));
  EXPECT_TRUE(near(leaky->at("bytes").get<double>(), leaked_bytes, 0.1));
  EXPECT_TRUE(near(leaky->at("live_bytes").get<double>(), leaked_bytes, 0.1));
  // Every block of the other two was freed: nothing of theirs is live.
  EXPECT_EQ(heavy->at("live_bytes"), 0);
  EXPECT_EQ(heavy->at("live_blocks"), 0);
  EXPECT_EQ(heavy->at("live_samples"), 0);
  EXPECT_EQ(light->at("live_bytes"), 0);
  EXPECT_EQ(light->at("live_samples"), 0);
}

// At PERF_HEAP_SAMPLE=1 every allocation of a mebibyte is sampled (p = 1 - e^-1048576):
// the estimates are the exact figures.
TEST_F(HeapSampling, AReallocatedBlockIsAFreeAndAnAllocation) {
  const json r = report("realloc", "1");
  const json* start = site_of(r, "(anonymous namespace)::grow_start");
  const json* end = site_of(r, "(anonymous namespace)::grow_end");
  ASSERT_TRUE(start && end) << r.at("allocation_sites").dump(2);
  EXPECT_EQ(start->at("bytes"), 16 * mib);
  EXPECT_EQ(start->at("allocations"), 16);
  EXPECT_EQ(start->at("live_bytes"), 0);
  EXPECT_EQ(end->at("bytes"), 32 * mib);
  EXPECT_EQ(end->at("live_bytes"), 32 * mib);
  EXPECT_EQ(end->at("live_blocks"), 16);
}

TEST_F(HeapSampling, AThreadThatExitedKeepsItsSamples) {
  const json r = report("thread", "1");
  const json* site = site_of(r, "(anonymous namespace)::thread_site");
  ASSERT_TRUE(site) << r.at("allocation_sites").dump(2);
  EXPECT_EQ(site->at("bytes"), 8 * mib);
  EXPECT_EQ(site->at("samples"), 8);
  EXPECT_EQ(site->at("live_bytes"), 4 * mib);
}

TEST_F(HeapSampling, AForkedChildReportsItsOwnSites) {
  const std::string path = (dir / "report-%p.json").string();
  const perf::testing::probe_result result =
      perf::testing::run_probe_program(PERF_HEAP_PROBE, "PERF_REPORT=" + path + " PERF_HEAP_SAMPLE=1", "fork");
  ASSERT_EQ(result.status, 0) << result.output;
  int reports = 0, with_child_site = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const json r = json::parse(read_file(entry.path()));
    ++reports;
    if (const json* site = site_of(r, "(anonymous namespace)::child_site")) {
      ++with_child_site;
      EXPECT_EQ(site->at("live_bytes"), 8 * mib);
    }
  }
  EXPECT_EQ(reports, 2);
  EXPECT_EQ(with_child_site, 1);
}

// 80,000 sampled blocks live at once (a sample every byte), past the 32,768 the live set
// holds, then 200,000 more allocated and freed at once: the full set is halved twice,
// each block kept standing for 4, so the live estimate counts the 80,000 (its
// standard deviation about 0.7%: 5% is 7 of them) and the freed site none, and the
// report says the estimates come from 1 in 4 sampled blocks. (It counted 32,768 live
// and said that some 247,000 sampled blocks, most of them freed, were in no live value.)
TEST_F(HeapSampling, MoreLiveBlocksThanTheLiveSetHoldsAreEstimatedAndFreedOnesAreNot) {
  const json r = report("full_live_set", "1");
  const json* live = site_of(r, "(anonymous namespace)::many_live_blocks");
  const json* freed = site_of(r, "(anonymous namespace)::freed_at_once");
  ASSERT_TRUE(live && freed) << r.at("allocation_sites").dump(2);
  EXPECT_TRUE(near(live->at("live_blocks").get<double>(), 80000, 0.05)) << live->dump();
  EXPECT_TRUE(near(live->at("live_bytes").get<double>(), 80000 * 64, 0.05)) << live->dump();
  EXPECT_EQ(freed->at("live_blocks"), 0u) << freed->dump();
  EXPECT_EQ(freed->at("live_bytes"), 0u) << freed->dump();
  EXPECT_EQ(freed->at("allocations"), 200000u) << freed->dump();
  const perf::testing::probe_result text =
      perf::testing::run_probe_program(PERF_HEAP_PROBE, "PERF_HEAP_SAMPLE=1", "full_live_set");
  EXPECT_NE(text.output.find("\n  live estimates from 1 in 4 sampled blocks still live: the live set was full\n"),
            std::string::npos)
      << text.output;
  EXPECT_EQ(text.output.find("never counted live"), std::string::npos) << text.output;
}

TEST_F(HeapSampling, OffByDefaultWithNoSitesAndNoSection) {
  EXPECT_EQ(report("one_leak", "").at("allocation_sites"), json::array());
  EXPECT_EQ(report("one_leak", "0").at("allocation_sites"), json::array());
  const perf::testing::probe_result text = perf::testing::run_probe_program(PERF_HEAP_PROBE, "", "one_leak");
  EXPECT_EQ(text.output.find("allocation sites"), std::string::npos) << text.output;
}

TEST_F(HeapSampling, ABadValueIsNamedAndLeavesSamplingOff) {
  const perf::testing::probe_result result =
      perf::testing::run_probe_program(PERF_HEAP_PROBE, "PERF_REPORT=off PERF_HEAP_SAMPLE=512k", "one_leak");
  EXPECT_EQ(result.output,
            "perf: PERF_HEAP_SAMPLE='512k' is not a number of bytes from 0 to 1099511627776; using 0 (off)\n");
}

// A leak made inside libstdc++ (a std::string's characters, allocated by its
// _M_mutate, which keeps no frame pointer) is charged to the program's function that
// asked for it: the unwinder steps through libstdc++ by its call-frame information.
// The probe's other live block is main's own (its vector of kept blocks).
TEST_F(HeapSampling, ALeakMadeInsideLibstdcxxNamesTheProgramsFunction) {
  const json r = report("string_leak", "4096");
  double leak_some_bytes = 0, all_bytes = 0;
  for (const json& site : r.at("allocation_sites")) {
    const std::string innermost = site.at("stack").empty() ? "" : site.at("stack")[0].get<std::string>();
    if (innermost.rfind("main (", 0) == 0) continue;
    all_bytes += site.at("live_bytes").get<double>();
    if (innermost.rfind("(anonymous namespace)::leak_some(", 0) == 0)
      leak_some_bytes += site.at("live_bytes").get<double>();
  }
  ASSERT_GT(all_bytes, 0) << r.at("allocation_sites").dump(2);
  EXPECT_GE(leak_some_bytes / all_bytes, 0.95) << r.at("allocation_sites").dump(2);
}

// With every allocation sampled, the runtime's own (its configuration, its outputs'
// settings, made at start-up where the program has no frame) are no site: before, a
// dozen sites had an empty stack or named the runtime's settle_report_destination.
TEST_F(HeapSampling, TheRuntimesOwnAllocationsAreNoSite) {
  const json r = report("one_leak", "1");
  ASSERT_TRUE(site_of(r, "(anonymous namespace)::leak_one_mebibyte")) << r.at("allocation_sites").dump(2);
  for (const json& site : r.at("allocation_sites")) {
    ASSERT_FALSE(site.at("stack").empty()) << site.dump();
    const std::string innermost = site.at("stack")[0].get<std::string>();
    EXPECT_EQ(innermost.find("../runtime/exit_report/"), std::string::npos) << site.dump();
    EXPECT_EQ(innermost.find("../runtime/heap/"), std::string::npos) << site.dump();
  }
}

TEST_F(HeapSampling, TheJsonFieldsAreNamedAsDocumented) {
  const json r = report("one_leak", "1");
  const json* site = site_of(r, "(anonymous namespace)::leak_one_mebibyte");
  ASSERT_TRUE(site) << r.at("allocation_sites").dump(2);
  std::vector<std::string> names;
  for (const auto& [name, value] : site->items()) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"allocations", "bytes", "live_blocks", "live_bytes", "live_samples",
                                             "samples", "stack", "truncated"}));  // nlohmann sorts them
  EXPECT_EQ(site->at("bytes"), mib);
  EXPECT_EQ(site->at("truncated"), false);
  EXPECT_NE(site->at("stack")[0].get<std::string>().find("heap_probe.cpp:"), std::string::npos) << site->dump();
}

TEST_F(HeapSampling, TheTextSectionListsTheTopSitesWithTheirFrames) {
  const perf::testing::probe_result result =
      perf::testing::run_probe_program(PERF_HEAP_PROBE, "PERF_HEAP_SAMPLE=1", "one_leak");
  const std::string& text = result.output;
  EXPECT_NE(text.find("\nallocation sites (PERF_HEAP_SAMPLE=1: a sample every 1 requested byte on average; "
                      "estimates): "),
            std::string::npos)
      << text;
  const std::string leak_site =
      "    1,048,576 bytes in 1 allocation (1 sampled); live: 1,048,576 bytes in 1 block\n"
      "      at (anonymous namespace)::leak_one_mebibyte() (";
  const size_t by_bytes = text.find("\n  by bytes allocated:\n" + leak_site);
  const size_t by_live = text.find("\n  by live bytes:\n" + leak_site);
  EXPECT_NE(by_bytes, std::string::npos) << text;
  EXPECT_NE(by_live, std::string::npos) << text;
  EXPECT_LT(by_bytes, by_live);
}

}  // namespace
