// The function row's table (report_format::function_columns) is complete: every column
// has its rules, and every column goes from the runtime's JSON through perf-report's
// reader, merge and writer without being lost or merged by another rule than its own.
// (Its /metrics families: test/runtime/export/metrics_test.cpp.)
#include <gtest/gtest.h>

#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "merge.hpp"
#include "parsed_report.hpp"
#include "record_columns.hpp"
#include "report_format/function_columns.hpp"
#include "sample_reports.hpp"

namespace perf::perf_report {
namespace {

using report_format::function_column;
using report_format::function_columns;
using report_format::json_form;
using report_format::merge_rule;
using report_format::presence;
using report_format::range_rule;

// A row as the runtime writes one: sampled (timed_calls < calls), so that every column
// is read; figures exact to the decimals they are written with.
function_stats sampled_row() {
  function_stats f;
  f.name = "columns::row";
  f.file = "/src/columns.cpp";
  f.line = 42;
  f.calls = 1000;
  f.timed_calls = 250;
  f.total_ns = 90000.5;
  f.self_ns = 60000.5;
  f.mean_ns = 90.5;
  f.mean_ns_low = 80.5;
  f.mean_ns_high = 100.5;
  f.min_ns = 20.5;
  f.max_ns = 400.5;
  f.stddev_ns = 7.5;
  f.alloc_count = 2;
  f.alloc_bytes = 64;
  f.timed_mean_ns = 85.5;
  f.m2_ns2 = 12345.5;
  f.alloc_total_count = 2000;
  f.alloc_total_bytes = 64000;
  f.probe_dominated = true;
  f.histogram = {{1000, 150}, {1100, 100}};
  return f;
}

nlohmann::json runtime_row(const function_stats& f) {
  std::string text;
  report_format::append_function_json(text, f);
  return nlohmann::json::parse(text);
}

report read_back(const function_stats& f) {
  return testing::parsed(testing::report_json(7, 1.0, nlohmann::json::array({runtime_row(f)})), "row.json");
}

TEST(FunctionColumns, EveryColumnHasItsRules) {
  for (const function_column& c : function_columns) {
    SCOPED_TRACE(std::string(c.json));
    EXPECT_NE(c.merge, merge_rule::unset) << "a column without a merge rule";
    EXPECT_NE(c.range, range_rule::unset) << "a column without a range check";
    // The accessor its form reads.
    EXPECT_EQ(c.text != nullptr, c.form == json_form::text);
    EXPECT_EQ(c.count != nullptr, c.form == json_form::integer || c.form == json_form::flag);
    EXPECT_EQ(c.number != nullptr, c.form == json_form::number);
    EXPECT_EQ(c.heading.empty(), c.cell == report_format::text_cell::none);
    EXPECT_EQ(c.metric_name.empty(), c.metric == report_format::metric_kind::none);
    // Derived on every side, or kept by perf-report's record.
    const record_column& r = record_column_of(c.field);
    const bool derived = c.merge == merge_rule::derived;
    EXPECT_EQ(derived, c.read == presence::derived);
    EXPECT_EQ(derived, c.range == range_rule::derived);
    EXPECT_EQ(derived, r.derived != nullptr);
    const bool whole = c.form == json_form::moments || c.form == json_form::histogram;
    EXPECT_EQ(derived || whole, std::holds_alternative<std::monostate>(r.member));
  }
}

TEST(FunctionColumns, EveryColumnRoundTripsThroughTheReaderAndTheWriter) {
  const nlohmann::json written = runtime_row(sampled_row());
  const nlohmann::json rewritten = to_json(read_back(sampled_row())).at("functions").at(0);
  ASSERT_EQ(rewritten.size(), function_columns.size()) << rewritten.dump();
  for (const function_column& c : function_columns) {
    SCOPED_TRACE(std::string(c.json));
    const std::string key(c.json);
    ASSERT_TRUE(rewritten.contains(key)) << "perf-report lost the column";
    // Derived ones are computed again from the others (the percentiles from the
    // histogram): of the same type; the others as read.
    if (c.merge == merge_rule::derived) EXPECT_EQ(rewritten.at(key).type(), written.at(key).type());
    else EXPECT_EQ(rewritten.at(key), written.at(key));
  }
}

TEST(FunctionColumns, MergeCombinesEachColumnByItsRule) {
  const function_record one = read_back(sampled_row()).functions.at(0);
  function_record both = one;
  merge_function(both, one);
  const nlohmann::json single = to_json(report{"", nlohmann::json::object(), {one}}).at("functions").at(0);
  const nlohmann::json merged = to_json(report{"", nlohmann::json::object(), {both}}).at("functions").at(0);
  for (const function_column& c : function_columns) {
    SCOPED_TRACE(std::string(c.json));
    const nlohmann::json &a = single.at(std::string(c.json)), &m = merged.at(std::string(c.json));
    switch (c.merge) {
      case merge_rule::key:
      case merge_rule::min:
      case merge_rule::max: EXPECT_EQ(m, a); break;
      case merge_rule::sum:
        if (a.is_number_unsigned()) EXPECT_EQ(m.get<uint64_t>(), 2 * a.get<uint64_t>());
        else EXPECT_DOUBLE_EQ(m.get<double>(), 2 * a.get<double>());
        break;
      case merge_rule::estimate:  // the same mean, its interval narrower
        EXPECT_GE(m.get<double>(), single.at("mean_ns_low").get<double>());
        EXPECT_LE(m.get<double>(), single.at("mean_ns_high").get<double>());
        break;
      case merge_rule::moments:
        EXPECT_DOUBLE_EQ(m.at("mean_ns").get<double>(), a.at("mean_ns").get<double>());
        EXPECT_DOUBLE_EQ(m.at("m2_ns2").get<double>(), 2 * a.at("m2_ns2").get<double>());
        break;
      case merge_rule::histogram:
        ASSERT_EQ(m.size(), a.size());
        for (size_t b = 0; b < a.size(); ++b) EXPECT_EQ(m[b][1].get<uint64_t>(), 2 * a[b][1].get<uint64_t>());
        break;
      case merge_rule::verdict: EXPECT_TRUE(m.is_boolean()); break;
      case merge_rule::derived: EXPECT_EQ(m.type(), a.type()); break;
      case merge_rule::unset: ADD_FAILURE() << "no merge rule"; break;
    }
  }
}

}  // namespace
}  // namespace perf::perf_report
