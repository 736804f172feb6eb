// perf-report merge on reports made by hand: the merge of two reports equals the
// report of all their durations.
#include <gtest/gtest.h>

#include <algorithm>

#include "merge.hpp"
#include "sample_reports.hpp"

namespace perf::report_tool {
namespace {

using testing::durations;
using testing::function_row;
using testing::parsed;
using testing::report_json;

std::vector<uint64_t> joined(std::vector<uint64_t> a, const std::vector<uint64_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

const function_record& named(const report& r, const std::string& name) {
  const auto found = std::find_if(r.functions.begin(), r.functions.end(), [&](const auto& f) { return f.name == name; });
  EXPECT_NE(found, r.functions.end()) << name;
  return *found;
}

TEST(Merge, EqualsTheReportOfAllTheDurations) {
  const auto a = durations(1, 500), b = durations(2, 700, 900);
  const report merged = merge_reports({parsed(report_json(11, 2.5, {function_row("f", a, 2.5, 2)})),
                                       parsed(report_json(12, 2.5, {function_row("f", b, 2.5, 2)}))});
  const report whole = parsed(report_json(13, 2.5, {function_row("f", joined(a, b), 2.5, 2)}));
  const function_record &m = named(merged, "f"), &w = named(whole, "f");
  EXPECT_EQ(m.calls, 1200u);
  EXPECT_DOUBLE_EQ(m.mean_ns, w.mean_ns);
  EXPECT_NEAR(m.m2_ns2, w.m2_ns2, w.m2_ns2 * 1e-12);
  EXPECT_DOUBLE_EQ(m.total_ns, w.total_ns);
  EXPECT_EQ(m.min_ns, w.min_ns);
  EXPECT_EQ(m.max_ns, w.max_ns);
  EXPECT_EQ(m.durations.buckets, w.durations.buckets);
  EXPECT_EQ(m.durations.ghz, 2.5);
  EXPECT_EQ(m.alloc_total_count, 2400u);
  EXPECT_EQ(m.alloc_total_bytes, 38400u);
  for (double q : {0.5, 0.9, 0.99}) EXPECT_EQ(m.quantile_ns(q), w.quantile_ns(q)) << q;
  EXPECT_EQ(merged.document.at("clock").at("ghz"), 2.5);
  EXPECT_EQ(merged.document.at("merged_pids"), nlohmann::json::parse("[11, 12]"));
}

TEST(Merge, KeepsFunctionsOfOneReportAndListsEveryThreadWithItsPid) {
  const report merged =
      merge_reports({parsed(report_json(11, 2.0, {function_row("f", {10, 20}, 2.0), function_row("g", {50}, 2.0)})),
                     parsed(report_json(12, 2.0, {function_row("f", {30}, 2.0)}))});
  ASSERT_EQ(merged.functions.size(), 2u);
  EXPECT_EQ(named(merged, "f").calls, 3u);
  EXPECT_EQ(named(merged, "g").calls, 1u);
  EXPECT_EQ(merged.document.at("threads"), nlohmann::json::parse(R"([
    {"tid": 12, "name": "main", "calls": 1, "exited": false, "tick_events": 2, "tick_dropped": 0, "pid": 11},
    {"tid": 13, "name": "main", "calls": 1, "exited": false, "tick_events": 2, "tick_dropped": 0, "pid": 12}])"));
  EXPECT_EQ(merged.document.at("ticklog").at("events"), 4);
}

TEST(Merge, ClocksOfDifferentRatesMergeInNanoseconds) {
  const auto a = durations(3, 400), b = durations(4, 400);
  const report merged = merge_reports({parsed(report_json(11, 2.0, {function_row("f", a, 2.0)})),
                                       parsed(report_json(12, 3.0, {function_row("f", b, 3.0)}))});
  const function_record& m = named(merged, "f");
  EXPECT_EQ(merged.document.at("clock").at("ghz"), 1.0);
  EXPECT_EQ(merged.document.at("clock").at("source"), "merged");
  EXPECT_EQ(m.durations.ghz, 1.0);
  EXPECT_EQ(m.durations.count(), 800u);
  std::vector<double> ns;
  for (uint64_t t : a) ns.push_back(static_cast<double>(t) / 2.0);
  for (uint64_t t : b) ns.push_back(static_cast<double>(t) / 3.0);
  std::sort(ns.begin(), ns.end());
  double mean = 0;
  for (double v : ns) mean += v / 800;
  EXPECT_NEAR(m.mean_ns, mean, mean * 1e-12);
  EXPECT_EQ(m.min_ns, ns.front());
  EXPECT_EQ(m.max_ns, ns.back());
  // Rebinned at bucket midpoints: within a bucket width (1/64) and its rounding.
  for (double q : {0.5, 0.9}) {
    const double exact = ns[static_cast<size_t>(std::ceil(q * 800)) - 1];
    EXPECT_NEAR(m.quantile_ns(q), exact, exact / 32 + 1) << q;
  }
}

TEST(Merge, SumsTheSamplesByFunctionAndRecomputesTheShares) {
  nlohmann::json a = report_json(11, 2.0, nlohmann::json::array()), b = report_json(12, 2.0, nlohmann::json::array());
  a["samples"] = nlohmann::json::parse(R"({"hz": 100, "clock": "cpu", "total": 10, "dropped": 0,
    "top": [{"function": "f", "file": "x.cpp", "samples": 6, "share": 0.6}, {"function": "g", "file": "x.cpp", "samples": 4, "share": 0.4}],
    "lines": [], "threads": [{"tid": 1, "samples": 10, "top": []}], "measured": [{"name": "f", "samples": 5, "share": 0.5}]})");
  b["samples"] = nlohmann::json::parse(R"({"hz": 100, "clock": "cpu", "total": 30, "dropped": 1,
    "top": [{"function": "g", "file": "x.cpp", "samples": 30, "share": 1.0}],
    "lines": [], "threads": [{"tid": 2, "samples": 30, "top": []}], "measured": []})");
  const report merged = merge_reports({parsed(a), parsed(b)});
  const nlohmann::json& s = merged.document.at("samples");
  EXPECT_EQ(s.at("total"), 40);
  EXPECT_EQ(s.at("dropped"), 1);
  EXPECT_EQ(s.at("top"), nlohmann::json::parse(R"([{"function": "g", "file": "x.cpp", "samples": 34, "share": 0.85},
    {"function": "f", "file": "x.cpp", "samples": 6, "share": 0.15}])"));
  EXPECT_EQ(s.at("threads").size(), 2u);
  EXPECT_EQ(merged.sample_shares().at("f"), 0.125);
}

}  // namespace
}  // namespace perf::report_tool
