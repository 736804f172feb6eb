// perf-report ab's output: text, Markdown, JSON and JUnit XML of one result, line by
// line (the figures worked out in the comments).
#include <gtest/gtest.h>

#include <sstream>

#include "ab.hpp"
#include "ab_format.hpp"
#include "sample_reports.hpp"

namespace perf::perf_report {
namespace {

using testing::function_row;
using testing::report_json;

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// Six processes per side: parse 1000 to 1010 ticks (500-505 ns, median 502.5) at base,
// 1200 to 1210 new (median 602.5, x1.199), two allocations per call; init called 10
// times (not judged). Wholly separated: p = 2/C(12,6) = 0.0022, Holm x4 = 0.0087; the
// interval at 5%/4 is the 3rd smallest and largest of the 36 ratios (P(U <= 2) = 4/924
// <= 0.625% < P(U <= 3) = 7/924): 600/504 = 1.190 and 604/500 ~ 605/501 = 1.208.
ab_result sample_result() {
  std::vector<report> base, now;
  for (long k = 0; k < 6; ++k)
    for (bool is_new : {false, true}) {
      const uint64_t ticks = (is_new ? 1200 : 1000) + 2 * static_cast<uint64_t>(k);
      nlohmann::json parse = function_row("parse", std::vector<uint64_t>(1000, ticks), 2.0, 2);
      nlohmann::json init = function_row("init", std::vector<uint64_t>(10, 4000), 2.0);
      (is_new ? now : base).push_back(testing::parsed(report_json(k, 2.0, {parse, init})));
    }
  ab_options o;
  o.runs = 6, o.first_look = 6;
  o.diff.rules = {parse_fail_rule("p50>+10%")};
  ab_result r = judge_processes(base, now, o);
  for (size_t i = 0; i < 12; ++i) r.order.push_back(side_of_process(i));
  r.stopped = "6 processes per side (--runs)";
  return r;
}

TEST(AbFormat, Text) {
  const std::vector<std::string> text = lines(format_ab_text(sample_result()));
  ASSERT_EQ(text.size(), 17u);
  EXPECT_EQ(text[0],
            "perf-report ab: 6 base and 6 new processes, run alternately (base, new, new, base, ...); stopped: 6 "
            "processes per side (--runs)");
  EXPECT_EQ(text[1],
            "each process's figures are one sample; ratio: the medians over processes, new/base; * beyond noise "
            "(rank-sum test, Holm over 4 figures, 5% false alarms in all, and past the floor); = compared exactly (the "
            "same in every process of a side); interval: Hodges-Lehmann's of the ratio, 98.750% for every figure and "
            "look together; detectable: the smallest change that interval tells from none; callees: its totals "
            "changed, its self time did not; functions with fewer than 100 calls per process are shown, not judged");
  EXPECT_EQ(text[2],
            "function                                    status figure       base        new     ratio        interval "
            "detectable");
  EXPECT_EQ(text[3], "parse                                      changed  calls       1000       1000   x1.000=");
  EXPECT_EQ(
      text[5],
      "                                                      p50     502 ns     602 ns   x1.199*  x1.190..x1.208    "
      "  ±0.7%");
  EXPECT_EQ(
      text[7],
      "                                                     self     251 ns     301 ns   x1.199*  x1.190..x1.208    "
      "  ±0.7%");
  EXPECT_EQ(text[8], "                                                    alloc       2.00       2.00   x1.000=");
  EXPECT_EQ(text[9], "init                                     few calls  calls         10         10   x1.000=");
  EXPECT_EQ(text[10], "                                                     mean    2.00 µs    2.00 µs    x1.000");
  EXPECT_EQ(text[14], "                                                    alloc       0.00       0.00         -");
  EXPECT_EQ(text[15], "broken: p50>+10%: parse p50 +19.9% (502 ns -> 602 ns)");
  EXPECT_EQ(text[16],
            "FAIL: p50>+10%: parse p50 +19.9% (502 ns -> 602 ns); 1 of 2 functions changed beyond noise (6 base and 6 "
            "new processes; each figure by a rank-sum test across processes, Holm over 4 figures, 5% false alarms; "
            "floor 1%): parse slower mean +19.9%");
}

TEST(AbFormat, Markdown) {
  const std::vector<std::string> md = lines(format_ab_markdown(sample_result()));
  ASSERT_EQ(md.size(), 22u);
  EXPECT_EQ(md[0].substr(0, 73), "**perf-report ab:** FAIL: p50\\>+10%: parse p50 +19.9% (502 ns -\\> 602 ns)");
  EXPECT_EQ(md[2],
            "perf-report ab: 6 base and 6 new processes, run alternately (base, new, new, base, ...); stopped: 6 "
            "processes per side (--runs)");
  EXPECT_EQ(md[4], "| function | status | figure | base | new | ratio | interval | detectable |");
  EXPECT_EQ(md[5], "|---|---|---|---:|---:|---:|---:|---:|");
  EXPECT_EQ(md[6], "| `parse` | changed | calls | 1000 | 1000 | x1.000= |  |  |");
  EXPECT_EQ(md[8], "| | | p50 | 502 ns | 602 ns | x1.199\\* | x1.190..x1.208 | ±0.7% |");
  EXPECT_EQ(md[12], "| `init` | few calls | calls | 10 | 10 | x1.000= |  |  |");
  EXPECT_EQ(md[19], "- broken: p50\\>+10%: parse p50 +19.9% (502 ns -\\> 602 ns)");
  EXPECT_EQ(md[21].substr(0, 40), "each process's figures are one sample; r");
}

TEST(AbFormat, Json) {
  const nlohmann::json j = ab_to_json(sample_result());
  EXPECT_EQ(j.at("base_processes"), 6);
  EXPECT_EQ(j.at("new_processes"), 6);
  EXPECT_EQ(j.at("order").dump(),
            R"x(["base","new","new","base","base","new","new","base","base","new","new","base"])x");
  EXPECT_EQ(j.at("stopped"), "6 processes per side (--runs)");
  EXPECT_EQ(j.at("tests"), 4);
  EXPECT_EQ(j.at("looks"), 1);
  EXPECT_EQ(j.at("all_decided"), true);
  EXPECT_EQ(j.at("broken").dump(), R"x(["p50>+10%: parse p50 +19.9% (502 ns -> 602 ns)"])x");
  const nlohmann::json& parse = j.at("functions").at(0);
  EXPECT_EQ(parse.at("name"), "parse");
  EXPECT_EQ(parse.at("status"), "changed");
  EXPECT_EQ(parse.at("through_callees"), false);
  const nlohmann::json& p50 = parse.at("figures").at("p50");
  EXPECT_DOUBLE_EQ(p50.at("base").get<double>(), 502.5);
  EXPECT_DOUBLE_EQ(p50.at("new").get<double>(), 602.5);
  EXPECT_DOUBLE_EQ(p50.at("p").get<double>(), 2.0 / 924);
  EXPECT_DOUBLE_EQ(p50.at("p_holm").get<double>(), 8.0 / 924);
  EXPECT_DOUBLE_EQ(p50.at("low").get<double>(), 600.0 / 504);
  EXPECT_DOUBLE_EQ(p50.at("high").get<double>(), 605.0 / 501);
  EXPECT_EQ(p50.at("beyond_noise"), true);
  EXPECT_EQ(parse.at("figures").at("calls").at("exact"), true);
  EXPECT_FALSE(parse.at("figures").at("calls").contains("p"));
  EXPECT_EQ(j.at("functions").at(1).at("status"), "few calls");
}

TEST(AbFormat, JUnitHasOneTestCasePerGatedFunction) {
  const std::vector<std::string> xml = lines(format_ab_junit(sample_result(), {parse_fail_rule("p50>+10%")}));
  ASSERT_EQ(xml.size(), 17u);
  EXPECT_EQ(xml[0], R"x(<?xml version="1.0" encoding="UTF-8"?>)x");
  EXPECT_EQ(xml[1], R"x(<testsuites name="perf-report ab" tests="1" failures="1">)x");
  EXPECT_EQ(xml[2], R"x( <testsuite name="perf-report ab" tests="1" failures="1">)x");
  EXPECT_EQ(xml[3].substr(0, 80),
            R"x(  <properties><property name="verdict" value="FAIL: p50&gt;+10%: parse p50 +19.9)x");
  EXPECT_EQ(xml[4], R"x(  <testcase classname="perf-report.ab" name="parse">)x");
  EXPECT_EQ(xml[5], R"x(   <failure message="p50&gt;+10%: parse p50 +19.9% (502 ns -&gt; 602 ns)" type="performance">)x"
                    "calls 1000 -&gt; 1000 x1.000=");
  EXPECT_EQ(xml[7], "p50 502 ns -&gt; 602 ns x1.199* x1.190..x1.208 ±0.7%");
  EXPECT_EQ(xml[11], "</failure>");
  EXPECT_EQ(xml[12], "   <system-out>changed (/src/parse.cpp:10)");
  EXPECT_EQ(xml[13], "</system-out>");
  EXPECT_EQ(xml[14], "  </testcase>");
  EXPECT_EQ(xml[15], " </testsuite>");
  EXPECT_EQ(xml[16], "</testsuites>");
}

}  // namespace
}  // namespace perf::perf_report
