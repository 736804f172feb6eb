// perf-report diff on reports made by hand: matching, ratios, the noise judgment,
// the order, the rules and the verdict.
#include <gtest/gtest.h>

#include "diff.hpp"
#include "diff_format.hpp"
#include "sample_reports.hpp"

namespace perf::perf_report {
namespace {

using testing::durations;
using testing::function_row;
using testing::parsed;
using testing::report_json;

// What the verdict of a diff with one report per side says of the default floor.
const std::string one_report_per_side =
    "; one report per side cannot see the noise between processes: no timing change within the between-process "
    "floor is flagged (the default: p50 10%, mean 10%, self 10%), nor one that its fastest calls (p10) did not make "
    "too";

// Options with no between-process floor, for the tests of the other parts of the noise judgment.
diff_options without_process_floor() {
  diff_options options;
  options.between_process.figures = {};
  options.between_process.source = "none";
  return options;
}

std::vector<uint64_t> scaled(std::vector<uint64_t> ticks, double factor) {
  for (uint64_t& t : ticks) t = static_cast<uint64_t>(std::llround(static_cast<double>(t) * factor));
  return ticks;
}

report one(long pid, std::vector<nlohmann::json> rows) { return parsed(report_json(pid, 2.0, rows)); }

// `r` with a clock of 0.5 ns resolution (one tick at 2 GHz).
report fine_clock(report r) {
  r.resolution_ns = 0.5;
  return r;
}

// Every call of the function `ticks` long.
std::vector<uint64_t> constant(uint64_t ticks, size_t calls) { return std::vector<uint64_t>(calls, ticks); }

// `rows` in a report whose clock has `resolution_ns` and, when `compensated_ns` > 0,
// subtracted that much from every call.
report with_clock(long pid, std::vector<nlohmann::json> rows, double resolution_ns, double compensated_ns = 0) {
  nlohmann::json j = report_json(pid, 2.0, rows);
  j["clock"]["resolution_ns"] = resolution_ns;
  if (compensated_ns > 0) {
    j["clock"]["probe_ns"] = 3 * compensated_ns;
    j["clock"]["probe_inside_ns"] = compensated_ns;
    j["clock"]["compensated"] = true;
  }
  return parsed(j);
}

TEST(Diff, TheSameDurationsAreNoChange) {
  const auto d = durations(1, 2000);
  const diff_result r = diff_reports({one(1, {function_row("f", d, 2.0)})}, {one(2, {function_row("f", d, 2.0)})}, {});
  ASSERT_EQ(r.functions.size(), 1u);
  EXPECT_FALSE(r.functions[0].slower_or_faster());
  EXPECT_EQ(r.functions[0][metric::mean].ratio(), 1.0);
  EXPECT_EQ(r.verdict,
            "no change beyond noise (1 function compared; noise floor 5%, and more than a histogram bucket and the "
            "clock's resolution (10.0 ns)" +
                one_report_per_side + ")");
}

TEST(Diff, ATwentyPercentSlowdownIsBeyondNoiseAndBreaksTheRule) {
  const auto d = durations(1, 2000);
  diff_options options;
  options.rules = {parse_fail_rule("mean>+10%"), parse_fail_rule("p50>+50%")};
  const diff_result r =
      diff_reports({one(1, {function_row("f", d, 2.0), function_row("g", d, 2.0)})},
                   {one(2, {function_row("f", scaled(d, 1.2), 2.0), function_row("g", d, 2.0)})}, options);
  ASSERT_EQ(r.functions.size(), 2u);
  const function_diff& f = r.functions[0];  // the larger impact first
  EXPECT_EQ(f.name, "f");
  EXPECT_NEAR(f[metric::mean].ratio(), 1.2, 0.001);
  EXPECT_TRUE(f[metric::mean].beyond_noise);
  EXPECT_TRUE(f[metric::p50].beyond_noise);
  EXPECT_FALSE(f[metric::p99].beyond_noise) << "one run per side cannot judge the tail";
  EXPECT_FALSE(f[metric::calls].beyond_noise);
  EXPECT_FALSE(r.functions[1].slower_or_faster());
  ASSERT_EQ(r.broken.size(), 1u);
  EXPECT_EQ(r.broken[0].substr(0, 27), "mean>+10%: f mean +20.0% (2");
  EXPECT_EQ(r.verdict.substr(0, r.verdict.find(" (")), "FAIL: mean>+10%: f mean +20.0%");
  EXPECT_NE(r.verdict.find("; 1 of 2 functions changed beyond noise (noise floor 5%, and more than a histogram bucket "
                           "and the clock's resolution (10.0 ns)" +
                           one_report_per_side + "): f slower mean +20.0%"),
            std::string::npos)
      << r.verdict;
}

TEST(Diff, AChangeBelowTheNoiseFloorIsNoise) {
  const auto d = durations(1, 20000);
  const diff_result r =
      diff_reports({one(1, {function_row("f", d, 2.0)})}, {one(2, {function_row("f", scaled(d, 1.03), 2.0)})}, {});
  EXPECT_FALSE(r.functions[0][metric::mean].beyond_noise);
  diff_options fine = without_process_floor();
  fine.noise_floor = 0.01;
  EXPECT_TRUE(diff_reports({fine_clock(one(1, {function_row("f", d, 2.0)}))},
                           {fine_clock(one(2, {function_row("f", scaled(d, 1.03), 2.0)}))}, fine)
                  .functions[0][metric::mean]
                  .beyond_noise);
}

TEST(Diff, TooFewCallsAreNotJudged) {
  diff_options options;
  options.min_calls = 100;
  options.rules = {parse_fail_rule("mean>+10%")};
  const diff_result r = diff_reports({one(1, {function_row("f", durations(1, 50), 2.0)})},
                                     {one(2, {function_row("f", scaled(durations(1, 50), 2), 2.0)})}, options);
  EXPECT_TRUE(r.functions[0].too_few_calls);
  EXPECT_FALSE(r.functions[0].slower_or_faster());
  EXPECT_TRUE(r.broken.empty());
}

TEST(Diff, ARenamedOrMovedFunctionIsRemovedAndAdded) {
  nlohmann::json moved = function_row("f", {100}, 2.0);
  moved["line"] = 11;
  const diff_result r =
      diff_reports({one(1, {function_row("f", {100}, 2.0)})}, {one(2, {moved, function_row("g", {100}, 2.0)})}, {});
  ASSERT_EQ(r.functions.size(), 3u);
  std::map<std::string, presence> where;
  for (const function_diff& d : r.functions) where[d.name + ":" + std::to_string(d.line)] = d.where;
  EXPECT_EQ(where.at("f:10"), presence::removed);
  EXPECT_EQ(where.at("f:11"), presence::added);
  EXPECT_EQ(where.at("g:10"), presence::added);
  EXPECT_EQ(r.verdict,
            "no change beyond noise (0 functions compared; noise floor 5%, and more than a histogram bucket and the "
            "clock's resolution (10.0 ns)" +
                one_report_per_side + "): f removed; f added; g added");
}

TEST(Diff, SeveralRunsPerSideJudgeByTheSpreadBetweenRuns) {
  // Each run's mean moves by +-8% around 300 ticks: a 10% difference of one pair
  // of runs is within that spread, though the calls alone would call it certain.
  std::vector<report> base, now;
  for (long i = 0; i < 3; ++i) {
    base.push_back(one(i, {function_row("f", scaled(durations(i, 5000), 1 + 0.08 * static_cast<double>(i - 1)), 2.0)}));
    now.push_back(one(
        10 + i, {function_row("f", scaled(durations(10 + i, 5000), 1.1 + 0.08 * static_cast<double>(1 - i)), 2.0)}));
  }
  EXPECT_FALSE(diff_reports(base, now, {}).functions[0][metric::mean].beyond_noise);
  EXPECT_TRUE(diff_reports({base[1]}, {now[1]}, without_process_floor()).functions[0][metric::mean].beyond_noise);
  // The between-process floor (10% by default) keeps one report per side from flagging it.
  EXPECT_FALSE(diff_reports({base[1]}, {now[1]}, {}).functions[0][metric::mean].beyond_noise);
}

TEST(Diff, OneReportPerSideFlagsNoTimingChangeWithinTheBetweenProcessFloor) {
  const auto d = durations(1, 20000);
  const report base = one(1, {function_row("f", d, 2.0), function_row("g", d, 2.0)});
  const report now = one(2, {function_row("f", scaled(d, 1.08), 2.0), function_row("g", scaled(d, 1.12), 2.0)});
  diff_options options;
  options.rules = {parse_fail_rule("mean>+5%")};
  const diff_result by_default = diff_reports({base}, {now}, options);
  ASSERT_EQ(by_default.broken.size(), 1u);
  EXPECT_EQ(by_default.broken[0], "mean>+5%: g mean +12.0% (225 ns -> 252 ns)");
  // A floor measured by ab (--save-noise), read back (--noise-from): f's own 3%, the
  // figures' 15% for a function the file does not name.
  process_floor measured;
  measured.source = "floor.json";
  measured.figures = {0, 0.15, 0.15, 0.15, 0.15, 0, 0};
  measured.functions["f"] = {0, 0.03, 0.03, 0.03, 0.03, 0, 0};
  options.between_process = measured;
  const diff_result from_file = diff_reports({base}, {now}, options);
  ASSERT_EQ(from_file.broken.size(), 1u);
  EXPECT_EQ(from_file.broken[0], "mean>+5%: f mean +8.0% (225 ns -> 243 ns)");
  EXPECT_NE(
      from_file.verdict.find("; one report per side cannot see the noise between processes: no timing change "
                             "within the between-process floor is flagged (floor.json: p50 15%, mean 15%, self "
                             "15%, the most of any function), nor one that its fastest calls (p10) did not make too)"),
      std::string::npos)
      << from_file.verdict;
  // Several reports per side see the noise themselves: no floor.
  const diff_result several = diff_reports({base, base}, {now, now}, options);
  EXPECT_EQ(several.verdict.find("between-process"), std::string::npos);
}

// `fast` calls of `fast_ticks` and `slow` of twice as long, interleaved: a process on a busy
// host, whose calls ran with the vCPU alone or sharing its core.
std::vector<uint64_t> two_speeds(size_t fast, size_t slow, uint64_t fast_ticks) {
  std::vector<uint64_t> ticks = durations(7, fast + slow, fast_ticks / 8);  // within an eighth of fast_ticks
  for (uint64_t& t : ticks) t += fast_ticks - fast_ticks / 8;
  for (size_t i = 0; i < slow; ++i) ticks[i * (fast + slow) / slow] *= 2;
  return ticks;
}

TEST(Diff, OneReportPerSideFlagsNoChangeItsFastestCallsDidNotMake) {
  // parse_line's calls as a busy host splits them: 60% fast in one process, 35% in the
  // other; its p50 nearly doubles and its mean grows a sixth, while its fastest tenth stays.
  const auto steady = durations(2, 20000, 40);
  diff_options options;
  options.rules = {parse_fail_rule("p50>+5%"), parse_fail_rule("mean>+5%")};
  const report base = one(1, {function_row("parse_line", two_speeds(12000, 8000, 400), 2.0),
                              function_row("add", steady, 2.0), function_row("weight", steady, 2.0)});
  const report busier = one(2, {function_row("parse_line", two_speeds(7000, 13000, 400), 2.0),
                                function_row("add", steady, 2.0), function_row("weight", steady, 2.0)});
  const diff_result machine = diff_reports({base}, {busier}, options);
  const function_diff& parse_line = machine.functions[0];
  ASSERT_EQ(parse_line.name, "parse_line");
  EXPECT_GT(parse_line[metric::p50].ratio(), 1.8);
  EXPECT_GT(parse_line[metric::mean].ratio(), 1.15);
  EXPECT_TRUE(machine.broken.empty()) << machine.broken[0];
  EXPECT_EQ(machine.verdict,
            "no change beyond noise (3 functions compared; noise floor 5%, and more than a histogram bucket and the "
            "clock's resolution (10.0 ns)" +
                one_report_per_side + ")");
  // The code made 1.3x and 3x slower moves every call, the fastest with them: caught,
  // the slowed function itself and no other, with three functions or with one alone.
  for (const double factor : {1.3, 3.0}) {
    const report slower = one(3, {function_row("parse_line", scaled(two_speeds(12000, 8000, 400), factor), 2.0),
                                  function_row("add", steady, 2.0), function_row("weight", steady, 2.0)});
    const diff_result code = diff_reports({base}, {slower}, options);
    ASSERT_EQ(code.broken.size(), 2u) << factor;
    EXPECT_EQ(code.broken[0], factor == 3.0 ? "p50>+5%: parse_line p50 +198.6% (221 ns -> 660 ns)"
                                            : "p50>+5%: parse_line p50 +29.4% (221 ns -> 286 ns)");
    EXPECT_EQ(code.broken[1], factor == 3.0 ? "mean>+5%: parse_line mean +200.0% (297 ns -> 892 ns)"
                                            : "mean>+5%: parse_line mean +30.0% (297 ns -> 386 ns)");
    EXPECT_EQ(code.verdict.substr(code.verdict.find("; 1 of 3 functions changed"), 26), "; 1 of 3 functions changed");
    const report alone_base = one(4, {function_row("parse_line", two_speeds(12000, 8000, 400), 2.0)});
    const report alone_slower = one(5, {function_row("parse_line", scaled(two_speeds(12000, 8000, 400), factor), 2.0)});
    EXPECT_EQ(diff_reports({alone_base}, {alone_slower}, options).broken.size(), 2u) << factor;
  }
  // Alone, the busier process is as quiet: the rule is the function's own, no other is asked.
  const report alone_busier = one(6, {function_row("parse_line", two_speeds(7000, 13000, 400), 2.0)});
  EXPECT_TRUE(
      diff_reports({one(4, {function_row("parse_line", two_speeds(12000, 8000, 400), 2.0)})}, {alone_busier}, options)
          .broken.empty());
}

TEST(Diff, NormalizingByAnUnchangedFunctionCancelsTheMachinesSpeed) {
  const auto d = durations(1, 4000), e = durations(2, 4000);
  // The new run's machine is 30% slower throughout, and g's work 20% more.
  const report base = one(1, {function_row("ref", d, 2.0), function_row("g", e, 2.0)});
  const report now = one(2, {function_row("ref", scaled(d, 1.3), 2.0), function_row("g", scaled(e, 1.3 * 1.2), 2.0)});
  diff_options options;
  options.normalize = "ref";
  const diff_result r = diff_reports({base}, {now}, options);
  for (const function_diff& f : r.functions) {
    if (f.name == "ref") EXPECT_NEAR(f[metric::p50].ratio(), 1.0, 0.02);
    if (f.name == "g") EXPECT_NEAR(f[metric::mean].ratio(), 1.2, 0.02);
  }
  EXPECT_EQ(r.verdict.substr(0, r.verdict.find(" (")), "1 of 2 functions changed beyond noise");
  options.normalize = "absent";
  EXPECT_THROW(
      {
        try {
          diff_reports({base}, {now}, options);
        } catch (const input_error& error) {
          EXPECT_STREQ(error.what(), "made.json: no calls of absent, the function to normalize by");
          throw;
        }
      },
      input_error);
}

TEST(Diff, NormalizedFastestCallsAreJudgedAgainstTheYardsticksOwn) {
  // The new process spent most of its calls sharing its core: the yardstick's median
  // doubled, its fastest tenth stayed. Scaling by that median halves g's fastest calls,
  // which g's 20% more work moved up with every other call of g's.
  diff_options options;
  options.normalize = "ref";
  options.rules = {parse_fail_rule("p50>+10%")};
  const report base = one(1, {function_row("ref", two_speeds(12000, 8000, 400), 2.0),
                              function_row("g", two_speeds(12000, 8000, 600), 2.0)});
  const report busier = one(2, {function_row("ref", two_speeds(5000, 15000, 400), 2.0),
                                function_row("g", scaled(two_speeds(5000, 15000, 600), 1.2), 2.0)});
  const diff_result r = diff_reports({base}, {busier}, options);
  ASSERT_EQ(r.broken.size(), 1u) << r.verdict;
  EXPECT_EQ(r.broken[0], "p50>+10%: g p50 +19.8% (330 ns -> 395 ns)");
  // The same busier process with g's work unchanged: no change.
  const report same = one(3, {function_row("ref", two_speeds(5000, 15000, 400), 2.0),
                              function_row("g", two_speeds(5000, 15000, 600), 2.0)});
  EXPECT_TRUE(diff_reports({base}, {same}, options).broken.empty());
}

TEST(Diff, SaysWhichFunctionsAreProbeDominated) {
  // f: 20% slower, probe-dominated in the new run; g: the same, not dominated.
  const auto d = durations(1, 2000, 30);
  nlohmann::json f_new = function_row("f", scaled(d, 1.2), 2.0), g = function_row("g", durations(2, 2000), 2.0);
  f_new["probe_dominated"] = true;
  g["probe_dominated"] = false;
  const diff_result r =
      diff_reports({fine_clock(one(1, {function_row("f", d, 2.0), g}))}, {fine_clock(one(2, {f_new, g}))}, {});
  ASSERT_EQ(r.functions[0].name, "f");
  EXPECT_TRUE(r.functions[0].probe_dominated());
  EXPECT_FALSE(r.functions[1].probe_dominated());
  EXPECT_EQ(r.verdict,
            "1 of 2 functions changed beyond noise (noise floor 5%, and more than a histogram bucket and the clock's "
            "resolution (0.50 ns)" +
                one_report_per_side + "): f slower mean +20.0% (probe-dominated)");
  const std::string text = format_diff_text(r);
  EXPECT_EQ(text.substr(text.find("\nf ") + 1, 20), "f (probe)           ") << text;
  EXPECT_NE(text.find("\ng                                       "), std::string::npos) << text;
  EXPECT_NE(format_diff_markdown(r).find("| `f` (probe) | changed |"), std::string::npos);
  const nlohmann::json j = diff_to_json(r);
  EXPECT_EQ(j.at("functions").at(0).at("probe_dominated"), nlohmann::json::parse(R"({"base": false, "new": true})"));
  EXPECT_EQ(j.at("functions").at(1).at("probe_dominated"), nlohmann::json::parse(R"({"base": false, "new": false})"));
}

TEST(Diff, MarkdownAndJsonCarryTheVerdictAndTheRatios) {
  const auto d = durations(1, 2000);
  const diff_result r =
      diff_reports({one(1, {function_row("f", d, 2.0)})}, {one(2, {function_row("f", scaled(d, 1.2), 2.0)})}, {});
  const std::string markdown = format_diff_markdown(r);
  EXPECT_EQ(markdown.substr(0, markdown.find('\n')),
            "**perf-report:** 1 of 1 function changed beyond noise (noise floor 5%, and more than a histogram bucket "
            "and the clock's resolution (10.0 ns)" +
                one_report_per_side + "): f slower mean +20.0%");
  EXPECT_NE(markdown.find("| `f` | changed |"), std::string::npos) << markdown;
  const nlohmann::json j = diff_to_json(r);
  EXPECT_EQ(j.at("verdict"), r.verdict);
  EXPECT_EQ(j.at("functions").at(0).at("figures").at("mean").at("beyond_noise"), true);
  EXPECT_NEAR(j.at("functions").at(0).at("figures").at("mean").at("ratio").get<double>(), 1.2, 0.001);
}

// A function called once at start-up (cold caches, page faults) takes three times as
// long in one run as in the other: a single call says nothing of the next run's.
TEST(Diff, AFunctionWithFewCallsIsNotJudgedByDefault) {
  diff_options options;
  options.rules = {parse_fail_rule("p50>+10%")};
  EXPECT_EQ(options.min_calls, 100u);
  const diff_result r = diff_reports({one(1, {function_row("setup", {1000}, 2.0)})},
                                     {one(2, {function_row("setup", {3000}, 2.0)})}, options);
  EXPECT_TRUE(r.functions[0].too_few_calls);
  EXPECT_FALSE(r.functions[0][metric::p50].beyond_noise);
  EXPECT_TRUE(r.broken.empty());
  const std::string text = format_diff_text(r);
  EXPECT_EQ(
      text.substr(0, text.find('\n')),
      "1 base report(s), 1 new report(s); ratios new/base, * beyond noise; functions with fewer than 100 calls on "
      "a side are shown, not judged (--min-calls); (probe): probe-dominated, the probe costs a third or more of its "
      "time, a change may be the probe's (docs/perf-report.md)");
  options.min_calls = 1;
  EXPECT_TRUE(diff_reports({one(1, {function_row("setup", {1000}, 2.0)})},
                           {one(2, {function_row("setup", {3000}, 2.0)})}, options)
                  .functions[0][metric::p50]
                  .beyond_noise);
}

// A p50 of 4 ns moving by one tick of a clock that resolves 10 ns is +12.5%, and noise.
TEST(Diff, AMoveWithinTheClocksResolutionIsNoise) {
  diff_options options;
  options.rules = {parse_fail_rule("p50>+10%")};
  const diff_result r = diff_reports({with_clock(1, {function_row("f", constant(8, 2000), 2.0)}, 10.0)},
                                     {with_clock(2, {function_row("f", constant(9, 2000), 2.0)}, 10.0)}, options);
  EXPECT_NEAR(r.functions[0][metric::p50].ratio(), 1.125, 1e-9);
  EXPECT_FALSE(r.functions[0].slower_or_faster());
  EXPECT_TRUE(r.broken.empty());
  // The same move on a clock that resolves it (0.1 ns) is a change: 2 ticks past 1.
  const diff_result fine = diff_reports({with_clock(1, {function_row("f", constant(8, 2000), 2.0)}, 0.1)},
                                        {with_clock(2, {function_row("f", constant(10, 2000), 2.0)}, 0.1)}, options);
  EXPECT_TRUE(fine.functions[0][metric::p50].beyond_noise);
  EXPECT_EQ(fine.broken.size(), 1u);
}

// Every call one step of the clock longer (10 ns, 20 ticks at 2 GHz, on a clock whose
// resolution is stated a hair below the step, as a measured one is) is a quantile
// tipping over a step, and noise; two steps longer is a change.
TEST(Diff, AMoveOfOneClockStepIsNoiseAndOfTwoIsAChange) {
  diff_options options = without_process_floor();
  options.rules = {parse_fail_rule("p50>+10%")};
  const auto diff_to = [&](uint64_t now_ticks) {
    return diff_reports({with_clock(1, {function_row("f", constant(100, 2000), 2.0)}, 9.99)},
                        {with_clock(2, {function_row("f", constant(now_ticks, 2000), 2.0)}, 9.99)}, options);
  };
  const diff_result one_step = diff_to(120);
  EXPECT_NEAR(one_step.functions[0][metric::p50].ratio(), 1.2, 0.01);
  EXPECT_FALSE(one_step.functions[0][metric::p50].beyond_noise);
  EXPECT_TRUE(one_step.broken.empty());
  const diff_result two_steps = diff_to(140);
  EXPECT_TRUE(two_steps.functions[0][metric::p50].beyond_noise);
  EXPECT_EQ(two_steps.broken.size(), 1u);
}

// At 1,000 ticks a bucket is 8 ticks (4 ns at 2 GHz) wide: every call one bucket
// further is no change, two buckets further is.
TEST(Diff, AMoveOfOneHistogramBucketIsNoise) {
  diff_options options = without_process_floor();
  options.noise_floor = 0;
  const auto diff = [&](uint64_t now_ticks) {
    return diff_reports({with_clock(1, {function_row("f", constant(1000, 2000), 2.0)}, 0)},
                        {with_clock(2, {function_row("f", constant(now_ticks, 2000), 2.0)}, 0)}, options)
        .functions[0];
  };
  EXPECT_FALSE(diff(1008)[metric::p50].beyond_noise);
  EXPECT_FALSE(diff(1008)[metric::mean].beyond_noise);
  EXPECT_TRUE(diff(1016)[metric::p50].beyond_noise);
  EXPECT_TRUE(diff(1016)[metric::mean].beyond_noise);
}

// Compensation subtracted 7.3 ns from every call in one run, 7.9 ns in the other: a
// function of a few ns moves by that difference, which is the estimates', not the code's.
TEST(Diff, AMoveWithinTheProbeCostEstimatesSpreadIsNoise) {
  diff_options options;
  options.rules = {parse_fail_rule("p50>+10%")};
  const diff_result r =
      diff_reports({with_clock(1, {function_row("tiny", constant(4, 2000), 2.0)}, 0.4, 7.9)},
                   {with_clock(2, {function_row("tiny", constant(6, 2000), 2.0)}, 0.4, 7.3)}, options);
  EXPECT_NEAR(r.functions[0][metric::p50].ratio(), 1.5, 1e-9);
  EXPECT_FALSE(r.functions[0].slower_or_faster());
  EXPECT_TRUE(r.broken.empty());
  EXPECT_EQ(r.verdict,
            "no change beyond noise (1 function compared; noise floor 5%, and more than a histogram bucket and the "
            "clock's resolution (0.40 ns), plus 0.60 ns (the runs' probe-cost estimates apart)" +
                one_report_per_side + ")");
  const diff_result same_estimate =
      diff_reports({with_clock(1, {function_row("tiny", constant(4, 2000), 2.0)}, 0.4, 7.9)},
                   {with_clock(2, {function_row("tiny", constant(6, 2000), 2.0)}, 0.4, 7.9)}, options);
  EXPECT_TRUE(same_estimate.functions[0][metric::p50].beyond_noise);
}

// Every duration of the text and Markdown tables, the impact and the broken rules' in
// the report's units, a time saved as one gained: f 20% faster (a negative impact), g
// 20% slower.
TEST(DiffFormat, EveryDurationInTheReportsUnits) {
  const auto d = durations(1, 2000, 20000), e = durations(2, 2000, 300);
  diff_options options;
  options.rules = {parse_fail_rule("mean<-10%"), parse_fail_rule("p50>+10%")};
  const diff_result r =
      diff_reports({one(1, {function_row("f", d, 2.0), function_row("g", e, 2.0)})},
                   {one(2, {function_row("f", scaled(d, 0.8), 2.0), function_row("g", scaled(e, 1.2), 2.0)})}, options);
  EXPECT_EQ(
      format_diff_text(r),
      "1 base report(s), 1 new report(s); ratios new/base, * beyond noise; functions with fewer than 100 calls on a "
      "side are shown, not judged (--min-calls); (probe): probe-dominated, the probe costs a third or more of its "
      "time, a change may be the probe's (docs/perf-report.md)\n"
      "function                                    status     impact                calls                 mean      "
      "            p50                  p99                 self                alloc                share\n"
      "f                                          changed   -6.00 ms          2000 x1.000      12.0 µs x0.800*    "
      "  12.0 µs x0.796*       15.9 µs x0.803      6.00 µs x0.800*               0.00 -               0.0% -\n"
      "g                                          changed    90.2 µs          2000 x1.000       270 ns x1.200*    "
      "   270 ns x1.200*        358 ns x1.201       135 ns x1.200*               0.00 -               0.0% -\n"
      "broken: mean<-10%: f mean -20.0% (15.0 µs -> 12.0 µs)\n"
      "broken: p50>+10%: g p50 +20.0% (225 ns -> 270 ns)\n"
      "FAIL: mean<-10%: f mean -20.0% (15.0 µs -> 12.0 µs) and 1 more; 2 of 2 functions changed beyond noise "
      "(noise floor 5%, and more than a histogram bucket and the clock's resolution (10.0 ns)" +
          one_report_per_side + "): f faster mean -20.0%; g slower mean +20.0%\n");
  EXPECT_EQ(
      format_diff_markdown(r),
      "**perf-report:** FAIL: mean\\<-10%: f mean -20.0% (15.0 µs -\\> 12.0 µs) and 1 more; 2 of 2 functions "
      "changed beyond noise (noise floor 5%, and more than a histogram bucket and the clock's resolution (10.0 "
      "ns)" +
          one_report_per_side +
          "): f faster mean -20.0%; g slower mean +20.0%\n\n"
          "| function | status | impact | calls | mean | p50 | p99 | self | alloc | share |\n"
          "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
          "| `f` | changed | -6.00 ms | 2000 x1.000 | 12.0 µs x0.800\\* | 12.0 µs x0.796\\* | 15.9 µs x0.803 | 6.00 µs "
          "x0.800\\* | 0.00 - | 0.0% - |\n"
          "| `g` | changed | 90.2 µs | 2000 x1.000 | 270 ns x1.200\\* | 270 ns x1.200\\* | 358 ns x1.201 | 135 ns "
          "x1.200\\* | 0.00 - | 0.0% - |\n\n"
          "- broken: mean\\<-10%: f mean -20.0% (15.0 µs -\\> 12.0 µs)\n"
          "- broken: p50\\>+10%: g p50 +20.0% (225 ns -\\> 270 ns)\n\n"
          "1 base report(s), 1 new report(s); ratios new/base, \\* beyond noise; functions with fewer than 100 calls "
          "on a side are shown, not judged (--min-calls); (probe): probe-dominated, the probe costs a third or more "
          "of its time, a change may be the probe's (docs/perf-report.md)\n");
}

}  // namespace
}  // namespace perf::perf_report
