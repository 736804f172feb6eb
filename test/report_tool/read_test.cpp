// Reading reports: what is accepted, and the message for what is not.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "command_line.hpp"
#include "sample_reports.hpp"

namespace perf::report_tool {
namespace {

using testing::function_row;
using testing::report_json;

std::string error_of(const std::string& text, const std::string& path = "r.json") {
  try {
    parse_report(text, path);
  } catch (const input_error& e) {
    return e.what();
  }
  return "accepted";
}

TEST(ReadReport, TakesTheFunctionsAndKeepsTheRest) {
  const report r = testing::parsed(report_json(7, 2.0, {function_row("f", {100, 300}, 2.0, 1)}));
  ASSERT_EQ(r.functions.size(), 1u);
  EXPECT_EQ(r.functions[0].calls, 2u);
  EXPECT_EQ(r.functions[0].mean_ns, 100.0);
  EXPECT_EQ(r.functions[0].m2_ns2, 2 * 50.0 * 50.0);
  EXPECT_EQ(r.functions[0].durations.ghz, 2.0);
  EXPECT_EQ(r.functions[0].durations.count(), 2u);
  EXPECT_EQ(r.functions[0].alloc_total_bytes, 32u);
  EXPECT_EQ(r.document.at("ticklog").at("events"), 2);
  EXPECT_FALSE(r.document.contains("functions"));
}

TEST(ReadReport, NamesTheFileAndTheProblem) {
  EXPECT_EQ(error_of("{\"pid\": "), "r.json: not JSON: [json.exception.parse_error.101] parse error at line 1, column 9: "
                                   "syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal");
  EXPECT_EQ(error_of("[1, 2]"), "r.json: not a report: the JSON is not an object");
  nlohmann::json no_calls = report_json(7, 2.0, {function_row("f", {100}, 2.0)});
  no_calls["functions"][0].erase("calls");
  EXPECT_EQ(error_of(no_calls.dump()), "r.json: functions[0] has no \"calls\"");
  nlohmann::json text_line = report_json(7, 2.0, {function_row("f", {100}, 2.0)});
  text_line["functions"][0]["line"] = "ten";
  EXPECT_EQ(error_of(text_line.dump()), "r.json: functions[0] \"line\" is not a non-negative integer");
  nlohmann::json short_histogram = report_json(7, 2.0, {function_row("f", {100, 200}, 2.0)});
  short_histogram["functions"][0]["histogram"] = {{100, 1}};
  EXPECT_EQ(error_of(short_histogram.dump()), "r.json: functions[0] \"histogram\" counts 1 calls, \"calls\" says 2");
  nlohmann::json no_clock = report_json(7, 2.0, nlohmann::json::array());
  no_clock.erase("clock");
  EXPECT_EQ(error_of(no_clock.dump()), "r.json: the report has no \"clock\"");
}

TEST(ReadReport, RefusesOtherSchemaVersionsNamingThem) {
  nlohmann::json old = report_json(7, 2.0, nlohmann::json::array());
  old.erase("schema_version");
  EXPECT_EQ(error_of(old.dump(), "old.json"),
            "old.json: no \"schema_version\": a report of schema version 1, written by a runtime older than "
            "perf-report, which reads schema version 2 (run the program again with this runtime)");
  nlohmann::json future = report_json(7, 2.0, nlohmann::json::array());
  future["schema_version"] = 3;
  EXPECT_EQ(error_of(future.dump(), "new.json"), "new.json: schema version 3; this perf-report reads schema version 2");
}

TEST(CommandLine, AMissingFileIsExitTwoAndOneLineNamingIt) {
  std::ostringstream out, err;
  EXPECT_EQ(run_command_line({"html", "/nonexistent/r.json"}, out, err), 2);
  EXPECT_EQ(err.str(), "perf-report: /nonexistent/r.json: cannot open: No such file or directory\n");
  EXPECT_EQ(out.str(), "");
}

TEST(CommandLine, BadInputWritesNoOutputFile) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("perf-report-read-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "good.json") << report_json(1, 2.0, {function_row("f", {100}, 2.0)}).dump();
  std::ofstream(dir / "bad.json") << "{\"schema_version\": 2}";
  std::ostringstream out, err;
  EXPECT_EQ(run_command_line({"merge", (dir / "good.json").string(), (dir / "bad.json").string(), "-o",
                              (dir / "all.json").string()},
                             out, err),
            2);
  EXPECT_EQ(err.str(), "perf-report: " + (dir / "bad.json").string() + ": the report has no \"clock\"\n");
  EXPECT_FALSE(std::filesystem::exists(dir / "all.json"));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()), 2);
  std::filesystem::remove_all(dir);
}

TEST(CommandLine, UsageErrorsAreExitTwo) {
  std::ostringstream out, err;
  EXPECT_EQ(run_command_line({"diff", "a.json"}, out, err), 2);
  EXPECT_EQ(err.str().substr(0, err.str().find('\n')),
            "perf-report: diff needs BASE.json NEW.json, or several of each side separated by --new");
  std::ostringstream out2, err2;
  EXPECT_EQ(run_command_line({"diff", "a.json", "b.json", "--fail-if", "p99 > 10"}, out2, err2), 2);
  EXPECT_EQ(err2.str(), "perf-report: --fail-if 'p99 > 10': expected FIGURE>+N% or FIGURE<-N%, FIGURE one of calls, "
                        "mean, p50, p99, self, alloc, share\n");
}

}  // namespace
}  // namespace perf::report_tool
