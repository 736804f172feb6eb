// perf-report merge on reports made by hand: the merge of two reports equals the
// report of all their durations.
#include <gtest/gtest.h>

#include <algorithm>

#include "merge.hpp"
#include "sample_reports.hpp"

namespace perf::perf_report {
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
  const auto found =
      std::find_if(r.functions.begin(), r.functions.end(), [&](const auto& f) { return f.name == name; });
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

// Three runs of one machine calibrate rates a few parts in 10^8 apart: one clock, kept
// with the first report's rate, the histograms added bucket by bucket as they are.
TEST(Merge, RatesWithinTheCalibrationsPrecisionAreOneClock) {
  const auto a = durations(5, 300), b = durations(6, 500);
  const report merged = merge_reports({parsed(report_json(11, 2.44540414, {function_row("f", a, 2.44540414)})),
                                       parsed(report_json(12, 2.44540416, {function_row("f", b, 2.44540416)}))});
  const report whole = parsed(report_json(13, 2.44540414, {function_row("f", joined(a, b), 2.44540414)}));
  EXPECT_EQ(merged.document.at("clock").at("source"), "rdtsc");
  EXPECT_EQ(merged.document.at("clock").at("frequency"), "calibrated");
  EXPECT_EQ(merged.document.at("clock").at("ghz"), 2.44540414);
  const function_record& m = named(merged, "f");
  EXPECT_EQ(m.durations.ghz, 2.44540414);
  EXPECT_EQ(m.durations.buckets, named(whole, "f").durations.buckets);
  // Rates 2 parts in 10^4 apart are two clocks.
  const report apart = merge_reports({parsed(report_json(11, 2.4454, {function_row("f", a, 2.4454)})),
                                      parsed(report_json(12, 2.4459, {function_row("f", b, 2.4459)}))});
  EXPECT_EQ(apart.document.at("clock").at("source"), "merged");
}

// A report whose probe costs `probe_ns` a call (`inside_ns` of it left in the
// durations when not compensated), with its probe_overhead section.
nlohmann::json with_probe(nlohmann::json report, double probe_ns, double inside_ns, bool compensated,
                          const nlohmann::json& overhead) {
  report["clock"]["probe_ns"] = probe_ns;
  report["clock"]["probe_inside_ns"] = inside_ns;
  report["clock"]["compensated"] = compensated;
  report["probe_overhead"] = overhead;
  return report;
}

TEST(Merge, KeepsAFunctionWithoutCallsUnderItsName) {
  nlohmann::json idle = function_row("idle", {100}, 2.0);
  idle["calls"] = idle["timed_calls"] = 0;
  idle["histogram"] = nlohmann::json::array();
  idle["moments"] = {{"mean_ns", 0.0}, {"m2_ns2", 0.0}};
  const report merged = merge_reports({parsed(report_json(11, 2.0, {function_row("f", {100}, 2.0), idle})),
                                       parsed(report_json(12, 2.0, {function_row("f", {100}, 2.0), idle}))});
  ASSERT_EQ(merged.functions.size(), 2u);
  EXPECT_EQ(merged.functions[1].name, "idle");
  EXPECT_EQ(merged.functions[1].file, "/src/idle.cpp");
  EXPECT_EQ(merged.functions[1].calls, 0u);
}

nlohmann::json dominated(nlohmann::json row, bool is) {
  row["probe_dominated"] = is;
  return row;
}

TEST(Merge, JudgesProbeDominationOnTheMergedMedianAndAddsUpTheProbeOverhead) {
  // f: 1000 calls of 50 ns at probe 10 ns (not dominated: 50 >= 2 x 10), and 10 calls
  // of 15 ns at probe 12 ns (dominated: 15 < 24); merged, its median (50 ns) is not
  // below 2 x the call-weighted probe (10.02 ns): not dominated.
  // g: 100 calls of 5 ns and 50 of 6 ns: dominated on both sides and merged.
  // h: 20 calls of 22 ns with 4 ns of the probe inside (not compensated): 18 < 2 x 12.
  const nlohmann::json a = with_probe(
      report_json(11, 2.0,
                  {dominated(function_row("f", std::vector<uint64_t>(1000, 100), 2.0), false),
                   dominated(function_row("g", std::vector<uint64_t>(100, 10), 2.0), true)}),
      10.0, 4.0, true,
      nlohmann::json::parse(R"({"calls": 1100, "ns": 11000.0, "dominated_functions": 1, "dominated_calls": 100,
                                "dominated_ns": 1000.0, "process_cpu_ns": 1000000.0})"));
  const nlohmann::json b =
      with_probe(report_json(12, 2.0,
                             {dominated(function_row("f", std::vector<uint64_t>(10, 30), 2.0), true),
                              dominated(function_row("g", std::vector<uint64_t>(50, 12), 2.0), true),
                              dominated(function_row("h", std::vector<uint64_t>(20, 44), 2.0), true)}),
                 12.0, 4.0, false,
                 nlohmann::json::parse(R"({"calls": 80, "ns": 960.0, "dominated_functions": 3, "dominated_calls": 80,
                                "dominated_ns": 960.0, "process_cpu_ns": 2500000.0})"));
  const report merged = merge_reports({parsed(a), parsed(b)});
  const function_record &f = named(merged, "f"), &g = named(merged, "g"), &h = named(merged, "h");
  EXPECT_FALSE(f.probe_dominated);
  EXPECT_DOUBLE_EQ(f.probe_ns, (1000 * 10.0 + 10 * 12.0) / 1010);
  EXPECT_DOUBLE_EQ(f.probe_inside_ns, 10 * 4.0 / 1010);
  EXPECT_TRUE(g.probe_dominated);
  EXPECT_TRUE(h.probe_dominated);  // as its one report says
  EXPECT_EQ(merged.document.at("probe_overhead"),
            nlohmann::json::parse(R"({"calls": 1180, "ns": 11960.0, "dominated_functions": 2, "dominated_calls": 170,
                                      "dominated_ns": 1840.0, "process_cpu_ns": 3500000.0})"));
  // Written out and read back, the flags stay.
  const report again = parsed(to_json(merged));
  EXPECT_FALSE(named(again, "f").probe_dominated);
  EXPECT_TRUE(named(again, "g").probe_dominated);
}

TEST(Merge, AFewLongCallsDoNotTakeTheProbeDominatedMarkAway) {
  // k: 99 calls of 5 ns and one of 10 us at probe 10 ns: a mean of 105 ns, a median of 5 ns.
  std::vector<uint64_t> ticks(99, 10);
  ticks.push_back(20000);
  const nlohmann::json overhead = nlohmann::json::parse(R"({"calls": 100, "ns": 1000.0, "dominated_functions": 1,
    "dominated_calls": 100, "dominated_ns": 1000.0, "process_cpu_ns": 1000000.0})");
  const nlohmann::json one =
      with_probe(report_json(11, 2.0, {dominated(function_row("k", ticks, 2.0), true)}), 10.0, 0.0, true, overhead);
  const report merged = merge_reports({parsed(one), parsed(one)});
  EXPECT_TRUE(named(merged, "k").probe_dominated);
}

// The calls counted apart as preempted and the probe's checks while each run ran add
// up; the checks' highest figure is the highest any run found. A report written before
// a figure existed leaves the merged report without it rather than with a sum too low.
TEST(Merge, AddsUpThePreemptedCallsAndTheProbesChecks) {
  const auto run = [](uint64_t pid, uint64_t preempted, double preempted_ns, const char* checks) {
    nlohmann::json overhead = nlohmann::json::parse(R"({"calls": 100, "ns": 1000.0, "dominated_functions": 0,
      "dominated_calls": 0, "dominated_ns": 0.0, "process_cpu_ns": 5000.0})");
    overhead["preempted_calls"] = preempted;
    overhead["preempted_ns"] = preempted_ns;
    nlohmann::json r = with_probe(report_json(pid, 2.0, {function_row("f", {10, 20}, 2.0)}), 10.0, 4.0, true, overhead);
    r["probe_checks"] = nlohmann::json::parse(checks);
    return r;
  };
  const nlohmann::json a = run(11, 2, 30000.0, R"({"checks": 4, "above": 1, "highest_ns": 31.5})");
  nlohmann::json b = run(12, 1, 12500.0, R"({"checks": 7, "above": 0, "highest_ns": 26.25})");
  const report merged = merge_reports({parsed(a), parsed(b)});
  EXPECT_EQ(merged.document.at("probe_overhead").at("preempted_calls"), 3);
  EXPECT_EQ(merged.document.at("probe_overhead").at("preempted_ns"), 42500.0);
  EXPECT_EQ(merged.document.at("probe_checks"),
            nlohmann::json::parse(R"({"checks": 11, "above": 1, "highest_ns": 31.5})"));

  b.erase("probe_checks");
  b["probe_overhead"].erase("preempted_calls");
  for (const report& without : {merge_reports({parsed(a), parsed(b)}), merge_reports({parsed(b), parsed(a)})}) {
    EXPECT_FALSE(without.document.contains("probe_checks"));
    EXPECT_FALSE(without.document.at("probe_overhead").contains("preempted_calls"));
    EXPECT_FALSE(without.document.at("probe_overhead").contains("preempted_ns"));
  }
}

TEST(Merge, SumsTheSamplesByFunctionAndRecomputesTheShares) {
  nlohmann::json a = report_json(11, 2.0, nlohmann::json::array()), b = report_json(12, 2.0, nlohmann::json::array());
  a["samples"] = nlohmann::json::parse(R"({"hz": 100, "clock": "cpu", "total": 10, "dropped": 0, "probe_samples": 3,
    "top": [{"function": "f", "file": "x.cpp", "samples": 6, "share": 0.6}, {"function": "g", "file": "x.cpp", "samples": 4, "share": 0.4}],
    "lines": [], "threads": [{"tid": 1, "samples": 10, "top": []}], "measured": [{"name": "f", "samples": 5, "share": 0.5}]})");
  b["samples"] = nlohmann::json::parse(R"({"hz": 100, "clock": "cpu", "total": 30, "dropped": 1, "probe_samples": 7,
    "top": [{"function": "g", "file": "x.cpp", "samples": 30, "share": 1.0}],
    "lines": [], "threads": [{"tid": 2, "samples": 30, "top": []}], "measured": []})");
  const report merged = merge_reports({parsed(a), parsed(b)});
  const nlohmann::json& s = merged.document.at("samples");
  EXPECT_EQ(s.at("total"), 40);
  EXPECT_EQ(s.at("dropped"), 1);
  EXPECT_EQ(s.at("probe_samples"), 10);
  EXPECT_EQ(s.at("top"), nlohmann::json::parse(R"([{"function": "g", "file": "x.cpp", "samples": 34, "share": 0.85},
    {"function": "f", "file": "x.cpp", "samples": 6, "share": 0.15}])"));
  EXPECT_EQ(s.at("threads").size(), 2u);
  EXPECT_EQ(merged.sample_shares().at("f"), 0.125);
  // The top lists hold every sample; the empty lines lists none.
  EXPECT_EQ(s.at("unlisted_at_most"), nlohmann::json::parse(R"({"top": 0, "lines": 40})"));

  // A report written before probe_samples existed: the sum would not be exact.
  b["samples"].erase("probe_samples");
  EXPECT_FALSE(merge_reports({parsed(a), parsed(b)}).document.at("samples").contains("probe_samples"));
  EXPECT_FALSE(merge_reports({parsed(b), parsed(a)}).document.at("samples").contains("probe_samples"));
}

// Threads the kernel refused every sampling source (a seccomp filter): summed, with the
// first report's reason.
TEST(Merge, SumsTheThreadsNotSampledAndKeepsWhy) {
  nlohmann::json a = report_json(11, 2.0, nlohmann::json::array()), b = report_json(12, 2.0, nlohmann::json::array());
  const std::string why = "the kernel refused timer_create (Operation not permitted)";
  a["samples"] = {{"hz", 100}, {"total", 0}, {"unsampled_threads", 3}, {"unsampled_why", why}};
  b["samples"] = {{"hz", 100}, {"total", 0}, {"unsampled_threads", 0}};
  nlohmann::json s = merge_reports({parsed(b), parsed(a), parsed(a)}).document.at("samples");
  EXPECT_EQ(s.at("unsampled_threads"), 6u);
  EXPECT_EQ(s.at("unsampled_why"), why);
  s = merge_reports({parsed(b), parsed(b)}).document.at("samples");
  EXPECT_EQ(s.at("unsampled_threads"), 0u);
  EXPECT_FALSE(s.contains("unsampled_why"));
}

TEST(Merge, SumsTheInterruptsAndGivesEachMergedShareItsOwnInterval) {
  nlohmann::json a = report_json(11, 2.0, nlohmann::json::array()), b = report_json(12, 2.0, nlohmann::json::array());
  a["samples"] = nlohmann::json::parse(R"({"hz": 100, "clock": "cpu", "source": "perf_event", "total": 10,
    "interrupts": 10, "dropped": 0, "top": [{"function": "f", "file": "x.cpp", "samples": 6, "share": 0.6,
    "share_low": 0.31, "share_high": 0.83}, {"function": "g", "file": "x.cpp", "samples": 4, "share": 0.4,
    "share_low": 0.17, "share_high": 0.69}], "lines": [], "threads": [], "measured": []})");
  b["samples"] = nlohmann::json::parse(R"({"hz": 100, "clock": "cpu", "source": "perf_event", "total": 30,
    "interrupts": 30, "dropped": 0, "top": [{"function": "g", "file": "x.cpp", "samples": 30, "share": 1.0,
    "share_low": 0.89, "share_high": 1.0}], "lines": [], "threads": [], "measured": []})");
  const nlohmann::json s = merge_reports({parsed(a), parsed(b)}).document.at("samples");
  EXPECT_EQ(s.at("interrupts"), 40);
  EXPECT_EQ(s.at("source"), "perf_event");
  // Wilson's 95% interval of 34 in 40 and of 6 in 40.
  const nlohmann::json& g = s.at("top").at(0);
  const nlohmann::json& f = s.at("top").at(1);
  EXPECT_EQ(g.at("function"), "g");
  EXPECT_NEAR(g.at("share_low").get<double>(), 0.70928, 1e-5);
  EXPECT_NEAR(g.at("share_high").get<double>(), 0.92939, 1e-5);
  EXPECT_NEAR(f.at("share_low").get<double>(), 0.07061, 1e-5);
  EXPECT_NEAR(f.at("share_high").get<double>(), 0.29072, 1e-5);

  // Sources that differ are not one source.
  b["samples"]["source"] = "timer";
  EXPECT_FALSE(merge_reports({parsed(a), parsed(b)}).document.at("samples").contains("source"));
  // A report that does not say its interrupts leaves the merged ones, and so every
  // interval, unknown: none is kept from a single report.
  b["samples"].erase("interrupts");
  const nlohmann::json unknown = merge_reports({parsed(a), parsed(b)}).document.at("samples");
  EXPECT_FALSE(unknown.contains("interrupts"));
  for (const nlohmann::json& row : unknown.at("top")) {
    EXPECT_FALSE(row.contains("share_low")) << row;
    EXPECT_FALSE(row.contains("share_high")) << row;
  }
}

// Each report lists its hottest few: x is missing from the first report's list but
// named by its thread's; g and h are missing from the second's and its thread's.
TEST(Merge, SampleListsCountWhatEveryListSaysAndBoundWhatTheyLeaveOut) {
  nlohmann::json a = report_json(11, 2.0, nlohmann::json::array()), b = report_json(12, 2.0, nlohmann::json::array());
  // 90 of 100 samples listed: one left out has at most 10 (and at most 20, the least listed).
  a["samples"] = nlohmann::json::parse(R"({"hz": 100, "clock": "cpu", "total": 100, "dropped": 0,
    "top": [{"function": "f", "file": "x.cpp", "samples": 40, "share": 0.4}, {"function": "g", "file": "x.cpp", "samples": 30, "share": 0.3},
            {"function": "h", "file": "x.cpp", "samples": 20, "share": 0.2}],
    "lines": [{"function": "f", "file": "x.cpp", "line": 3, "samples": 40, "share": 0.4}],
    "threads": [{"tid": 1, "samples": 100, "top": [{"function": "f", "file": "x.cpp", "samples": 40, "share": 0.4},
      {"function": "g", "file": "x.cpp", "samples": 30, "share": 0.3}, {"function": "x", "file": "x.cpp", "samples": 6, "share": 0.06}]}],
    "measured": []})");
  // 45 of 50 listed: one left out has at most 5.
  b["samples"] = nlohmann::json::parse(R"({"hz": 100, "clock": "cpu", "total": 50, "dropped": 0,
    "top": [{"function": "x", "file": "x.cpp", "samples": 30, "share": 0.6}, {"function": "f", "file": "x.cpp", "samples": 15, "share": 0.3}],
    "lines": [],
    "threads": [{"tid": 2, "samples": 50, "top": [{"function": "x", "file": "x.cpp", "samples": 30, "share": 0.6},
      {"function": "f", "file": "x.cpp", "samples": 15, "share": 0.3}]}],
    "measured": []})");
  const report merged = merge_reports({parsed(a), parsed(b)});
  const nlohmann::json& s = merged.document.at("samples");
  // f: 40 + 15. x: 6 (a's thread names it, with at most 6 for anything unnamed, so
  // a's list's 10 is not reached) + 30. g: 30 + at most 5; h: 20 + at most 5.
  std::vector<std::tuple<std::string, uint64_t, nlohmann::json>> rows;
  for (const nlohmann::json& row : s.at("top"))
    rows.emplace_back(row.at("function"), row.at("samples"), row.value("samples_at_most", nlohmann::json()));
  EXPECT_EQ(rows, (std::vector<std::tuple<std::string, uint64_t, nlohmann::json>>{
                      {"f", 55, nullptr}, {"x", 36, nullptr}, {"g", 30, 35}, {"h", 20, 25}}));
  EXPECT_DOUBLE_EQ(s.at("top").at(1).at("share").get<double>(), 36.0 / 150);
  // Unnamed anywhere: at most min(10, 6) in a and 5 in b; a line, 40 in a (the least
  // listed) and 50 in b (none listed).
  EXPECT_EQ(s.at("unlisted_at_most"), nlohmann::json::parse(R"({"top": 11, "lines": 90})"));
  EXPECT_EQ(s.at("lines"), nlohmann::json::parse(R"([{"function": "f", "file": "x.cpp", "line": 3, "samples": 40,
    "samples_at_most": 90, "share": 0.26666666666666666}])"));

  // A merged report merged again keeps its bounds.
  const report twice = merge_reports({merged, parsed(report_json(13, 2.0, nlohmann::json::array()))});
  EXPECT_EQ(twice.document.at("samples").at("top"), s.at("top"));
  EXPECT_EQ(twice.document.at("samples").at("unlisted_at_most"), s.at("unlisted_at_most"));
}

}  // namespace
}  // namespace perf::perf_report
