// Reading reports: what is accepted, and the message for what is not.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "command_line.hpp"
#include "merge.hpp"
#include "report_format/function_columns.hpp"
#include "report_format/schema.hpp"
#include "sample_reports.hpp"

namespace perf::perf_report {
namespace {

using testing::function_row;
using testing::report_json;

std::string error_of(const std::string& text, const std::string& path = "r.json") {
  try {
    parse_report(text, path);
  } catch (const input_error& e) { return e.what(); }
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
  EXPECT_EQ(error_of("{\"pid\": "), "r.json: not JSON: JSON document ended early in the middle of an object or array.");
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
  nlohmann::json text_flag = report_json(7, 2.0, {function_row("f", {100}, 2.0)});
  text_flag["functions"][0]["probe_dominated"] = "yes";
  EXPECT_EQ(error_of(text_flag.dump()), "r.json: functions[0] \"probe_dominated\" is not a boolean");
  nlohmann::json text_probe = report_json(7, 2.0, nlohmann::json::array());
  text_probe["clock"]["probe_ns"] = "20";
  EXPECT_EQ(error_of(text_probe.dump()), "r.json: the report.clock \"probe_ns\" is not a number");
  nlohmann::json no_clock = report_json(7, 2.0, nlohmann::json::array());
  no_clock.erase("clock");
  EXPECT_EQ(error_of(no_clock.dump()), "r.json: the report has no \"clock\"");
}

// Every field of the schema's list that the reader needs is named when missing; the
// derived ones, probe_dominated and adaptive timing's (absent from older reports, and
// the interval read only where calls were sampled), may be left out.
TEST(ReadReport, NamesEachMissingFieldOfTheSchemasList) {
  const std::set<std::string_view> optional = {
      "mean_ns",     "stddev_ns",       "p50_ns",      "p90_ns",      "p99_ns",      "p999_ns",     "alloc_count",
      "alloc_bytes", "probe_dominated", "timed_calls", "timed_share", "mean_ns_low", "mean_ns_high"};
  for (const auto& field : report_format::function_columns) {
    nlohmann::json document = report_json(7, 2.0, {function_row("f", {100}, 2.0)});
    nlohmann::json& row = document["functions"][0];
    row["probe_dominated"] = false;  // as the runtime writes every row
    ASSERT_TRUE(row.contains(field.json)) << field.json;
    row.erase(std::string(field.json));
    EXPECT_EQ(error_of(document.dump()),
              optional.count(field.json) ? "accepted" : fmt::format("r.json: functions[0] has no \"{}\"", field.json));
  }
  for (const auto& field : report_format::moments_fields) {
    nlohmann::json document = report_json(7, 2.0, {function_row("f", {100}, 2.0)});
    document["functions"][0]["moments"].erase(std::string(field.json));
    EXPECT_EQ(error_of(document.dump()), fmt::format("r.json: functions[0].moments has no \"{}\"", field.json));
  }
}

// nlohmann writes members sorted by name; the runtime and other writers need not.
std::string with_members_reversed(const nlohmann::json& object) {
  std::string text = "{";
  std::vector<std::pair<std::string, std::string>> members;
  for (const auto& [key, value] : object.items()) members.emplace_back(key, value.dump());
  for (auto it = members.rbegin(); it != members.rend(); ++it)
    text += (it == members.rbegin() ? "" : ",") + nlohmann::json(it->first).dump() + ":" + it->second;
  return text + "}";
}

TEST(ReadReport, ReadsMembersInAnyOrder) {
  nlohmann::json document = report_json(7, 2.0, nlohmann::json::array());
  const std::string row = with_members_reversed(function_row("f", {100, 300}, 2.0, 1));
  document["functions"] = "ROW";
  std::string text = with_members_reversed(document);
  text.replace(text.find("\"ROW\""), 5, "[" + row + "]");
  const report r = parse_report(text, "r.json");
  ASSERT_EQ(r.functions.size(), 1u);
  EXPECT_EQ(r.functions[0].name, "f");
  EXPECT_EQ(r.functions[0].calls, 2u);
  EXPECT_EQ(r.functions[0].mean_ns, 100.0);
  EXPECT_EQ(r.functions[0].durations.count(), 2u);
  EXPECT_EQ(r.functions[0].durations.ghz, 2.0);
}

TEST(ReadReport, RefusesTextThatIsNotJsonWhereverItIs) {
  const std::string good = report_json(7, 2.0, {function_row("f", {100}, 2.0)}).dump();
  std::string in_unread_field = good;  // p50_ns is derived, never read, still checked
  const size_t p50 = in_unread_field.find("\"p50_ns\":") + 9;
  in_unread_field.replace(p50, in_unread_field.find(',', p50) - p50, "1.2.3");
  EXPECT_EQ(error_of(in_unread_field), "r.json: not JSON: Problem while parsing a number");
  EXPECT_EQ(error_of(good + " x"), "r.json: not JSON: JSON document ended early in the middle of an object or array.");
}

TEST(ReadReport, ReportsTheFirstProblemInCheckingOrder) {
  nlohmann::json two_problems = report_json(7, 2.0, {function_row("f", {100}, 2.0)});
  two_problems["functions"][0].erase("calls");
  two_problems["functions"][0]["name"] = 5;
  EXPECT_EQ(error_of(two_problems.dump()), "r.json: functions[0] \"name\" is not a string");
  nlohmann::json bad_moments = report_json(7, 2.0, {function_row("f", {100}, 2.0)});
  bad_moments["functions"][0]["moments"].erase("m2_ns2");
  EXPECT_EQ(error_of(bad_moments.dump()), "r.json: functions[0].moments has no \"m2_ns2\"");
  nlohmann::json bad_entry = report_json(7, 2.0, {function_row("f", {100}, 2.0)});
  bad_entry["functions"][0]["histogram"].push_back({1, 2, 3});
  EXPECT_EQ(error_of(bad_entry.dump()),
            "r.json: functions[0] \"histogram\" holds an entry that is not [bucket, count]");
  nlohmann::json function_error_and_no_clock = bad_entry;
  function_error_and_no_clock.erase("clock");
  EXPECT_EQ(error_of(function_error_and_no_clock.dump()), "r.json: the report has no \"clock\"");
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

// A file is mapped, with simdjson's padding read past its end: a report ending just
// short of a page boundary (the padding in the next page) and one ending on it; a pipe
// is read.
TEST(ReadReport, ReadsFilesEndingAtAnyPlaceInAPageAndPipes) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("perf-report-read-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string text = report_json(7, 2.0, {function_row("f", {100, 300}, 2.0)}).dump();
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  for (size_t size : {page - 10, page, 2 * page - 1}) {
    ASSERT_LT(text.size(), size);
    const std::string path = (dir / ("r" + std::to_string(size) + ".json")).string();
    std::ofstream(path, std::ios::binary) << text << std::string(size - text.size(), ' ');
    ASSERT_EQ(std::filesystem::file_size(path), size);
    EXPECT_EQ(read_report(path).functions.at(0).calls, 2u) << size;
  }
  const std::string fifo = (dir / "pipe").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] { std::ofstream(fifo, std::ios::binary) << text; });
  EXPECT_EQ(read_report(fifo).functions.at(0).calls, 2u);
  writer.join();
  std::filesystem::remove_all(dir);
}

TEST(CommandLine, AMissingFileIsExitTwoAndOneLineNamingIt) {
  std::ostringstream out, err;
  EXPECT_EQ(run_command_line({"html", "/nonexistent/r.json"}, out, err), 2);
  EXPECT_EQ(err.str(), "perf-report: /nonexistent/r.json: cannot open: No such file or directory\n");
  EXPECT_EQ(out.str(), "");
}

TEST(CommandLine, BadInputWritesNoOutputFile) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("perf-report-read-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "good.json") << report_json(1, 2.0, {function_row("f", {100}, 2.0)}).dump();
  std::ofstream(dir / "bad.json") << "{\"schema_version\": 2}";
  std::ostringstream out, err;
  EXPECT_EQ(run_command_line(
                {"merge", (dir / "good.json").string(), (dir / "bad.json").string(), "-o", (dir / "all.json").string()},
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
  EXPECT_EQ(err2.str(),
            "perf-report: --fail-if 'p99 > 10': expected FIGURE>+N% or FIGURE<-N%, FIGURE one of calls, "
            "mean, p50, p99, self, alloc, share\n");
}

// Reports come from CI artifacts and other machines: each thing the runtime never
// writes is refused in one line naming the file, the JSON path and the problem.
TEST(ReadReport, RefusesNumbersOutOfRangeNamingThePath) {
  const nlohmann::json good = report_json(7, 2.0, {function_row("f", {100, 300}, 2.0), function_row("g", {100}, 2.0)});
  const auto refused = [&](const std::function<void(nlohmann::json&)>& change) {
    nlohmann::json bad = good;
    change(bad);
    return error_of(bad.dump());
  };
  EXPECT_EQ(refused([](auto& j) { j["functions"][0]["histogram"][1][0] = 3776; }),
            "r.json: functions[0].histogram[1] bucket 3776 is past the last bucket, 3775");
  EXPECT_EQ(refused([](auto& j) {
              j["functions"][0]["histogram"] = {{100, 1}, {90, 1}};
            }),
            "r.json: functions[0].histogram[1] bucket 90 follows bucket 100 (buckets ascend, each once)");
  EXPECT_EQ(refused([](auto& j) {
              j["functions"][0]["histogram"] = {{100, 1}, {100, 1}};
            }),
            "r.json: functions[0].histogram[1] bucket 100 follows bucket 100 (buckets ascend, each once)");
  // Two counts whose sum wraps around to "calls": 2^63 + (2^63 + 2) = 2 (mod 2^64).
  EXPECT_EQ(refused([](auto& j) {
              j["functions"][0]["histogram"] = {{100, uint64_t{1} << 63}, {200, (uint64_t{1} << 63) + 2}};
            }),
            "r.json: functions[0].histogram[0] count 9223372036854775808 makes more than 2^53 calls");
  EXPECT_EQ(refused([](auto& j) { j["functions"][0]["moments"]["m2_ns2"] = -1.5; }),
            "r.json: functions[0].moments \"m2_ns2\" is negative (a sum of squares)");
  EXPECT_EQ(refused([](auto& j) { j["functions"][1]["self_ns"] = -3.0; }),
            "r.json: functions[1] \"self_ns\" is negative");
  EXPECT_EQ(
      refused([](auto& j) { j["functions"][1]["self_ns"] = j["functions"][1]["total_ns"].template get<double>() + 1; }),
      "r.json: functions[1] \"self_ns\" is above \"total_ns\", which no report's figures may be");
  EXPECT_EQ(
      refused([](auto& j) { j["functions"][0]["min_ns"] = j["functions"][0]["max_ns"].template get<double>() + 1; }),
      "r.json: functions[0] \"min_ns\" is above \"max_ns\", which no report's figures may be");
  EXPECT_EQ(refused([](auto& j) { j["functions"][0]["line"] = uint64_t{1} << 32; }),
            "r.json: functions[0] \"line\" is above 4294967295");
  EXPECT_EQ(refused([](auto& j) { j["functions"][0]["calls"] = (uint64_t{1} << 53) + 1; }),
            "r.json: functions[0] \"calls\" is above 2^53, more than a report can count");
  EXPECT_EQ(refused([](auto& j) { j["functions"][1] = j["functions"][0]; }),
            "r.json: functions[1] has the name, file and line of functions[0]");
  EXPECT_EQ(refused([](auto& j) { j["clock"]["ghz"] = 1e9; }),
            "r.json: the report \"clock.ghz\" is 1000000000, not a clock's rate (0.001 to 1000 GHz)");
  EXPECT_EQ(refused([](auto& j) { j["clock"]["resolution_ns"] = -1; }),
            "r.json: the report.clock \"resolution_ns\" is negative");
  EXPECT_EQ(refused([](auto& j) { j["threads"][0] = 5; }), "r.json: threads[0] is not an object");
  EXPECT_EQ(refused([](auto& j) { j["pid"] = "seven"; }), "r.json: the report \"pid\" is not a non-negative integer");
  EXPECT_EQ(refused([](auto& j) { j["ticklog"]["events"] = -2; }),
            "r.json: ticklog \"events\" is not a non-negative integer");
  EXPECT_EQ(refused([](auto& j) {
              j["samples"] = {{"total", 10}, {"top", {{{"function", "f"}, {"samples", "many"}}}}};
            }),
            "r.json: samples.top[0] \"samples\" is not a non-negative integer");
  EXPECT_EQ(refused([](auto& j) {
              j["samples"] = {{"measured", {{{"name", "f"}, {"share", 2.5}}}}};
            }),
            "r.json: samples.measured[0] \"share\" is above 1");
  EXPECT_EQ(refused([](auto& j) {
              j["samples"] = {{"threads", {{{"top", 1}}}}};
            }),
            "r.json: samples.threads[0].top is not an array");
  EXPECT_EQ(refused([](auto& j) {
              j["probe_overhead"] = {{"ns", -1.0}};
            }),
            "r.json: probe_overhead \"ns\" is negative");
  EXPECT_EQ(refused([](auto& j) {
              j["probe_checks"] = {{"checks", 3}, {"above", -1}, {"highest_ns", 30.0}};
            }),
            "r.json: probe_checks \"above\" is not a non-negative integer");
  EXPECT_EQ(refused([](auto& j) {
              j["probe_checks"] = {{"checks", 3}, {"above", 1}, {"highest_ns", -30.0}};
            }),
            "r.json: probe_checks \"highest_ns\" is negative");
  EXPECT_EQ(refused([](auto& j) {
              j["allocations"] = {{"counting", 1}};
            }),
            "r.json: allocations \"counting\" is not a string");
}

// JSON lets an object name a member twice and leaves which one counts to the reader:
// perf-report refuses it wherever it is, rather than take the last silently.
TEST(ReadReport, RefusesAMemberTwiceNamingTheObject) {
  nlohmann::json document = report_json(7, 2.0, {function_row("f", {100, 300}, 2.0)});
  document["samples"] = {{"total", 3}, {"top", {{{"function", "f"}, {"samples", 2}, {"share", 0.6667}}}}};
  const std::string good = document.dump();
  ASSERT_EQ(error_of(good), "accepted");
  // `good` with `inserted` put before the first `before`.
  const auto with = [&](const std::string& before, const std::string& inserted) {
    std::string text = good;
    const size_t at = text.find(before);
    EXPECT_NE(at, std::string::npos) << before;
    return text.insert(at, inserted);
  };
  EXPECT_EQ(error_of(with("\"pid\"", "\"pid\":8,")), "r.json: the report has \"pid\" twice");
  EXPECT_EQ(error_of(with("\"calls\":2", "\"calls\":1,")), "r.json: functions[0] has \"calls\" twice");
  EXPECT_EQ(error_of(with("\"p50_ns\"", "\"p50_ns\":1,")), "r.json: functions[0] has \"p50_ns\" twice");
  EXPECT_EQ(error_of(with("\"name\":\"f\"", "\"x\":1,\"x\":1,")), "r.json: functions[0] has \"x\" twice");
  EXPECT_EQ(error_of(with("\"m2_ns2\"", "\"mean_ns\":1e308,")), "r.json: functions[0].moments has \"mean_ns\" twice");
  EXPECT_EQ(error_of(with("\"moments\"", "\"moments\":{\"mean_ns\":1,\"m2_ns2\":0},")),
            "r.json: functions[0] has \"moments\" twice");
  EXPECT_EQ(error_of(with("\"share\"", "\"samples\":1,")), "r.json: samples.top[0] has \"samples\" twice");
  EXPECT_EQ(error_of(with("\"functions\"", "\"functions\":[],")), "r.json: the report has \"functions\" twice");
}

// Figures each of the right type but beyond what the report's own totals and clock
// allow: merged or compared, they made a report perf-report refused (a null time, a
// share of 27,709,466) or a diff of "inf s".
TEST(ReadReport, RefusesFiguresBeyondTheReportsOwnTotals) {
  nlohmann::json good = report_json(7, 2.0, {function_row("f", {100, 300}, 2.0)});
  good["samples"] = {{"total", 155},
                     {"interrupts", 155},
                     {"probe_samples", 0},
                     {"top", {{{"function", "f"}, {"samples", 150}, {"share", 0.9677}}}},
                     {"threads", {{{"tid", 8}, {"samples", 155}, {"top", {{{"function", "f"}, {"samples", 150}}}}}}}};
  good["probe_overhead"] = {{"calls", 2}, {"ns", 40.0}, {"process_cpu_ns", 1e6}};
  ASSERT_EQ(error_of(good.dump()), "accepted");
  const auto refused = [&](const std::function<void(nlohmann::json&)>& change) {
    nlohmann::json bad = good;
    change(bad);
    return error_of(bad.dump());
  };
  EXPECT_EQ(refused([](auto& j) { j["functions"][0]["min_ns"] = 1e308; }),
            "r.json: functions[0] \"min_ns\" is above 2^64 ns, more than a clock counts");
  EXPECT_EQ(refused([](auto& j) { j["functions"][0]["moments"]["mean_ns"] = 1e308; }),
            "r.json: functions[0].moments \"mean_ns\" is above 2^64 ns, more than a clock counts");
  EXPECT_EQ(refused([](auto& j) { j["functions"][0]["moments"]["m2_ns2"] = 1e308; }),
            "r.json: functions[0].moments \"m2_ns2\" is above \"timed_calls\" x (2^64 ns)^2, more than the durations "
            "can spread");
  EXPECT_EQ(refused([](auto& j) { j["samples"]["top"][0]["samples"] = uint64_t{1} << 32; }),
            "r.json: samples.top[0] \"samples\" is 4294967296, more than the 155 of samples.total");
  EXPECT_EQ(refused([](auto& j) { j["samples"]["top"].push_back(j["samples"]["top"][0]); }),
            "r.json: samples.top counts 300 samples up to [1], more than the 155 of samples.total");
  EXPECT_EQ(refused([](auto& j) { j["samples"]["threads"][0]["top"][0]["samples"] = 156; }),
            "r.json: samples.threads[0].top[0] \"samples\" is 156, more than the 155 of samples.threads[0].samples");
  EXPECT_EQ(refused([](auto& j) {
              j["samples"]["threads"].push_back({{"tid", 9}, {"samples", 1}});
            }),
            "r.json: samples.threads count 156 samples up to [1], more than the 155 of samples.total");
  EXPECT_EQ(refused([](auto& j) { j["samples"]["interrupts"] = 156; }),
            "r.json: samples \"interrupts\" is 156, more than the 155 of samples.total");
  EXPECT_EQ(refused([](auto& j) { j["probe_overhead"]["ns"] = 1e308; }),
            "r.json: probe_overhead \"ns\" is above 2^64 ns, more than a clock counts");
  EXPECT_EQ(refused([](auto& j) { j["clock"]["probe_ns"] = 1e300; }),
            "r.json: the report.clock \"probe_ns\" is above 2^64 ns, more than a clock counts");
}

// Figures each in range whose sums are not (calls of two reports above 2^53): merge
// refuses them in one line, rather than write a report it would then refuse.
TEST(MergeReports, RefusesSumsBeyondWhatAReportHolds) {
  nlohmann::json big = report_json(7, 2.0, {function_row("f", {100}, 2.0)});
  nlohmann::json& row = big["functions"][0];
  row["calls"] = row["timed_calls"] = max_count;
  row["histogram"][0][1] = max_count;
  const report r = testing::parsed(big);
  try {
    merge_reports({r, r});
    ADD_FAILURE() << "merged";
  } catch (const input_error& e) {
    EXPECT_STREQ(e.what(), "the merged report: functions[0] \"calls\" is above 2^53, more than a report can count");
  }
}

// 100,000 nested arrays in a member perf-report does not use once exhausted the stack.
TEST(ReadReport, RefusesNestingDeeperThanALimit) {
  const std::string good = report_json(7, 2.0, {function_row("f", {100}, 2.0)}).dump();
  const auto nested = [&](const std::string& key, size_t depth) {
    return good.substr(0, good.size() - 1) + ",\"" + key + "\":" + std::string(depth, '[') + std::string(depth, ']') +
           "}";
  };
  std::string path = "unused";
  for (unsigned i = 0; i < max_nesting_depth; ++i) path += "[0]";  // the value 65 levels in
  EXPECT_EQ(error_of(nested("unused", 100000)),
            "r.json: " + path + " is nested deeper than 64 levels, more than a report ever is");
  EXPECT_EQ(error_of(nested("unused", max_nesting_depth)), "accepted");
  nlohmann::json in_a_row = report_json(7, 2.0, {function_row("f", {100}, 2.0)});
  in_a_row["functions"][0]["p50_ns"] = "DEEP";
  std::string text = in_a_row.dump();
  text.replace(text.find("\"DEEP\""), 6, std::string(100000, '[') + std::string(100000, ']'));
  EXPECT_EQ(error_of(text).substr(0, 35), "r.json: functions[0].p50_ns[0][0][0");
}

TEST(CommandLine, RefusesInputLargerThanTheLimitReadingNoFurther) {
  std::ostringstream out, err;
  EXPECT_EQ(run_command_line({"diff", "/dev/zero", "/dev/zero", "--max-input-mb", "1"}, out, err), 2);
  EXPECT_EQ(err.str(), "perf-report: /dev/zero: larger than 1 MB, the input limit (--max-input-mb raises it)\n");
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("perf-report-limit-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string report = (dir / "r.json").string();
  std::ofstream(report) << report_json(1, 2.0, {function_row("f", {100}, 2.0)}).dump() << std::string(1'000'000, ' ');
  std::ostringstream out2, err2;
  EXPECT_EQ(run_command_line({"html", report, "--max-input-mb", "1"}, out2, err2), 2);
  EXPECT_EQ(err2.str(), "perf-report: " + report + ": larger than 1 MB, the input limit (--max-input-mb raises it)\n");
  std::ostringstream out3, err3;
  EXPECT_EQ(run_command_line({"html", report, "--max-input-mb", "2"}, out3, err3), 0) << err3.str();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace perf::perf_report
