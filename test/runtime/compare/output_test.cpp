#include <gtest/gtest.h>

#include <limits>
#include <nlohmann/json.hpp>

#include "perf/compare.hpp"

namespace perf {
namespace {

comparison_result sample_result() {
  comparison_result result;
  result.batch_calls = 16;
  result.rounds = 1234;
  result.stop = stop_reason::precision;
  result.confidence = 0.95;
  result.precision = 0.01;
  compared reference;
  reference.name = "std::sort";
  reference.is_reference = true;
  reference.ns_per_call = 123.4;
  reference.spread = 0.005;
  compared candidate;
  candidate.name = "radix, \"lsd\"";
  candidate.ratio = 0.5124;
  candidate.interval = {0.5081, 0.5153};
  candidate.ns_per_call = 63.2;
  candidate.spread = 0.0071;
  candidate.outlier_rounds = 3;
  result.rows = {reference, candidate};
  return result;
}

TEST(CompareOutput, TableIsAligned) {
  EXPECT_EQ(sample_result().table(),
            "name          ratio    95% interval  ns/call  spread  outlier rounds\n"
            "std::sort     1.000     (reference)   123.40   ±0.5%\n"
            "radix, \"lsd\"  0.512  [0.508, 0.515]    63.20   ±0.7%               3\n"
            "1,234 rounds, 16 calls per batch; stopped: every interval within ±1% of its ratio\n");
}

TEST(CompareOutput, TableShowsTheSpreadAcrossProcessesAndAnUnboundedInterval) {
  comparison_result result = sample_result();
  result.stop = stop_reason::budget;
  result.rows[1].interval = {0, std::numeric_limits<double>::infinity()};
  result.rows[1].process_ratios = {0.5124, 0.498, 0.531};
  EXPECT_EQ(result.table(),
            "name          ratio  95% interval  ns/call  spread  outlier rounds        processes\n"
            "std::sort     1.000   (reference)   123.40   ±0.5%\n"
            "radix, \"lsd\"  0.512  [0.000, inf]    63.20   ±0.7%               3  0.498-0.531 (3)\n"
            "1,234 rounds, 16 calls per batch; stopped: time budget spent before every interval was within ±1%\n");
}

// Counts as every report writes them: grouped, one in the singular.
TEST(CompareOutput, OneRoundOfOneCallIsSingular) {
  comparison_result result = sample_result();
  result.rounds = 1;
  result.batch_calls = 1;
  const std::string table = result.table();
  EXPECT_NE(table.find("\n1 round, 1 call per batch; stopped: "), std::string::npos) << table;
}

TEST(CompareOutput, CsvQuotesNames) {
  EXPECT_EQ(sample_result().csv(),
            "name,reference,ratio,lower,upper,ns_per_call,spread,outlier_rounds,rounds,batch_calls,stop\n"
            "std::sort,1,1,1,1,123.4,0.005,0,1234,16,precision\n"
            "\"radix, \"\"lsd\"\"\",0,0.5124,0.5081,0.5153,63.2,0.0071,3,1234,16,precision\n");
}

TEST(CompareOutput, JsonHasEveryField) {
  comparison_result result = sample_result();
  result.rows[1].interval.upper = std::numeric_limits<double>::infinity();
  result.rows[1].process_ratios = {0.5, 0.52};
  const nlohmann::json json = nlohmann::json::parse(result.json());
  EXPECT_EQ(json["rounds"], 1234);
  EXPECT_EQ(json["batch_calls"], 16);
  EXPECT_EQ(json["stop"], "precision");
  EXPECT_EQ(json["confidence"], 0.95);
  EXPECT_EQ(json["precision"], 0.01);
  ASSERT_EQ(json["rows"].size(), 2u);
  const nlohmann::json& candidate = json["rows"][1];
  EXPECT_EQ(candidate["name"], "radix, \"lsd\"");
  EXPECT_EQ(candidate["reference"], false);
  EXPECT_EQ(json["rows"][0]["reference"], true);
  EXPECT_EQ(candidate["ratio"], 0.5124);
  EXPECT_EQ(candidate["lower"], 0.5081);
  EXPECT_TRUE(candidate["upper"].is_null());  // infinite
  EXPECT_EQ(candidate["ns_per_call"], 63.2);
  EXPECT_EQ(candidate["spread"], 0.0071);
  EXPECT_EQ(candidate["outlier_rounds"], 3);
  EXPECT_EQ(candidate["process_ratios"], nlohmann::json::parse("[0.5, 0.52]"));
}

}  // namespace
}  // namespace perf
