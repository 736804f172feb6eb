// The data perf-report's pages embed: histograms as compact text, and the
// distributions of the rows with the most time within the page's budget.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "html.hpp"
#include "page_histogram.hpp"
#include "report_format/html_page.hpp"
#include "sample_reports.hpp"

namespace perf::perf_report {
namespace {

using nlohmann::json;
using testing::durations;
using testing::function_row;
using testing::parsed;
using testing::report_json;

std::string file_contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << path;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(HtmlPage, EmbedsTheStyleSheetAndTheScriptFilesWhole) {
  const std::string style = file_contents(PERF_REPORT_FORMAT_DIR "/page.css");
  const std::string script = file_contents(PERF_REPORT_FORMAT_DIR "/page.js");
  ASSERT_GT(script.size(), 10'000u);
  EXPECT_EQ(
      report_format::html_page("a <title> & \"more\"", R"({"a": "</script>"})"),
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>a &lt;title&gt; &amp; &quot;more&quot;"
      "</title>\n<style>\n" +
          style +
          "</style></head>\n<body>\n<script id=\"data\" type=\"application/json\">"
          R"({"a": "<\/script>"})"
          "</script>\n<script>\n" +
          script + "</script>\n</body></html>\n");
}

TEST(PageHistogram, CountsAreBase64DigitsWithRunsOfEmptyBuckets) {
  histogram h;
  h.ghz = 2.0;
  h.buckets = {{130, 1}, {133, 40}, {134, 1000}};
  // 1: 2 = "C"; buckets 131 and 132 empty: 3 = "D"; 40: 80 = 16 + 2 * 32 = "w" "C";
  // 1000: 2000 = 16 + 30 * 32 + 1 * 1024 = "w" "-" "B".
  EXPECT_EQ(compact_counts(h), "CDwCw-B");
  EXPECT_EQ(page_histogram(h), json::parse(R"([2.0, 130, "CDwCw-B"])"));
  EXPECT_EQ(page_histogram(histogram{}), json::parse("[1.0]"));
}

size_t text_of(const report& r, const std::string& name) {
  for (const function_record& f : r.functions)
    if (f.name == name) return compact_counts(f.durations).size();
  ADD_FAILURE() << name;
  return 0;
}

TEST(ReportPage, EmbedsTheDistributionsOfTheFunctionsWithTheMostTimeThatFitTheBudget) {
  // In the report's order little first: the page chooses by total time.
  json g = function_row("g", durations(3, 200, 900), 2.0);
  g["file"] = "/src/f.cpp";
  const report r = parsed(report_json(
      1, 2.0, {function_row("little", durations(1, 50), 2.0), function_row("f", durations(2, 400, 3000), 2.0), g}));
  const size_t both = text_of(r, "f") + text_of(r, "g");

  json data = report_page_data(r, "", both);
  EXPECT_EQ(data["distributions"], 2);
  EXPECT_EQ(data["functions"]["name"], json::parse(R"(["little", "f", "g"])"));
  EXPECT_TRUE(data["functions"]["h"][0].is_null());
  EXPECT_EQ(data["functions"]["h"][1], page_histogram(r.functions[1].durations));
  EXPECT_EQ(data["functions"]["h"][2], page_histogram(r.functions[2].durations));
  EXPECT_EQ(data["files"], json::parse(R"(["/src/little.cpp", "/src/f.cpp"])"));
  EXPECT_EQ(data["functions"]["file"], json::parse("[0, 1, 1]"));
  // The figures of a row without its distribution are all there.
  EXPECT_EQ(data["functions"]["calls"][0], 50);
  EXPECT_EQ(data["functions"]["p50"][0], std::round(r.functions[0].quantile_ns(0.5) * 10) / 10);

  data = report_page_data(r, "", both - 1);  // g's no longer fits, nor little's after it
  EXPECT_EQ(data["distributions"], 1);
  EXPECT_TRUE(data["functions"]["h"][0].is_null());
  EXPECT_FALSE(data["functions"]["h"][1].is_null());
  EXPECT_TRUE(data["functions"]["h"][2].is_null());

  data = report_page_data(r, "");
  EXPECT_EQ(data["distributions"], 3);
}

// A folded file is input too: a stack of 100,000 frames once recursed as deep.
TEST(ReportPage, AFlameGraphIsAtMostAThousandFramesDeep) {
  const report r = parsed(report_json(1, 2.0, {function_row("f", durations(1, 50), 2.0)}));
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += (i == 0 ? "" : ";") + std::string("frame");
  const json data = report_page_data(r, "main;f 3\n" + deep + " 2\n");
  EXPECT_EQ(data["stacks"]["v"], 5);
  size_t depth = 0;
  for (const json* node = &data["stacks"]; !node->at("c").empty(); ++depth) {
    const json& children = node->at("c");
    node = &children.front();  // "frame" sorts before "main"
  }
  EXPECT_EQ(depth, 1000u);
  EXPECT_FALSE(html_report_page(r, deep + " 2\n", default_distribution_bytes).empty());
}

TEST(DiffPage, EmbedsBothSidesOfTheLargestChangesThatFitTheBudget) {
  const auto big = durations(2, 400, 3000), small = durations(3, 400, 300);
  std::vector<uint64_t> big_slower = big, small_slower = small;
  for (uint64_t& t : big_slower) t += 600;
  for (uint64_t& t : small_slower) t += 60;
  const diff_result d = diff_reports(
      {parsed(report_json(1, 2.0, {function_row("small", small, 2.0), function_row("big", big, 2.0)}))},
      {parsed(report_json(2, 2.0, {function_row("small", small_slower, 2.0), function_row("big", big_slower, 2.0)}))},
      {});
  ASSERT_EQ(d.functions[0].name, "big");
  const size_t big_texts =
      compact_counts(d.functions[0].base.durations).size() + compact_counts(d.functions[0].now.durations).size();
  const json data = diff_page_data(d, big_texts);
  EXPECT_EQ(data["distributions"], 1);
  const json& rows = data["rows"];
  EXPECT_EQ(rows["name"], json::array({"big", "small"}));
  EXPECT_EQ(rows["hb"][0], page_histogram(d.functions[0].base.durations));
  EXPECT_EQ(rows["hn"][0], page_histogram(d.functions[0].now.durations));
  EXPECT_TRUE(rows["hb"][1].is_null());
  EXPECT_TRUE(rows["hn"][1].is_null());
  // Its figures are there, to 6 significant digits.
  const change& p50 = d.functions[1][metric::p50];
  const json& shown = rows["fig"]["p50"];
  EXPECT_NEAR(shown["b"][1].get<double>(), p50.base, p50.base * 5e-6);
  EXPECT_NEAR(shown["n"][1].get<double>(), p50.now, p50.now * 5e-6);
  EXPECT_EQ(shown["x"][1], 1);
  EXPECT_EQ(data["files"], json::array({"/src/big.cpp", "/src/small.cpp"}));
  EXPECT_EQ(rows["file"], json::array({0, 1}));
}

}  // namespace
}  // namespace perf::perf_report
