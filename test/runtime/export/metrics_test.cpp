#include "export/metrics.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string_view>

#include "core/metric_families.hpp"
#include "report_format/function_columns.hpp"

namespace perf::runtime {
namespace {

snapshot one_function() {
  snapshot s;
  function_stats f;
  f.name = "ns::f<\"a\\b\">\n";
  f.file = "/src/x\xff.cpp";
  f.line = 25;
  f.calls = f.timed_calls = 10;
  f.total_ns = 2e9;
  f.self_ns = 1.5e9;
  f.mean_ns = f.timed_mean_ns = 2e8;
  f.latency_buckets.assign(std::size(latency_bucket_bounds_seconds), 4);
  f.latency_buckets.back() = 12;  // more than calls: a running thread's histogram ran ahead
  s.functions.push_back(f);
  thread_stats t;
  t.tid = 77;
  t.name = "worker";
  t.calls = 10;
  t.tick_events = 20;
  s.threads.push_back(t);
  s.ticklog.events = 20;
  return s;
}

// The whole page, read `room` bytes at a time as the server reads it.
std::string format_metrics(const snapshot& s, metrics_format format, size_t room = 32768) {
  metrics_page page(s, format);
  std::string text, piece(room, '\0');
  while (const size_t n = page.read(piece.data(), room)) {
    EXPECT_LE(n, room);
    text.append(piece.data(), n);
  }
  EXPECT_EQ(page.read(piece.data(), room), 0u) << "the end stays the end";
  return text;
}

const std::string labels = R"(function="ns::f<\"a\\b\">\n",file="/src/x)"
                           "\xEF\xBF\xBD"
                           R"(.cpp",line="25")";

TEST(Metrics, PrometheusTextWithEscapedLabelsAndFixedBuckets) {
  const std::string text = format_metrics(one_function(), metrics_format::prometheus);
  EXPECT_NE(text.find("# TYPE perf_function_calls_total counter\nperf_function_calls_total{" + labels + "} 10\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("perf_function_seconds_total{" + labels + "} 2\n"), std::string::npos);
  EXPECT_NE(text.find("perf_function_self_seconds_total{" + labels + "} 1.5\n"), std::string::npos);
  EXPECT_NE(text.find("# TYPE perf_function_duration_seconds histogram\n"
                      "perf_function_duration_seconds_bucket{" +
                      labels + ",le=\"1e-07\"} 4\n"),
            std::string::npos);
  EXPECT_NE(text.find("perf_function_duration_seconds_bucket{" + labels +
                      ",le=\"10\"} 10\n"
                      "perf_function_duration_seconds_bucket{" +
                      labels +
                      ",le=\"+Inf\"} 10\n"
                      "perf_function_duration_seconds_sum{" +
                      labels +
                      "} 2\n"
                      "perf_function_duration_seconds_count{" +
                      labels + "} 10\n"),
            std::string::npos);
  EXPECT_NE(text.find("perf_thread_calls_total{tid=\"77\",thread=\"worker\"} 10\n"), std::string::npos);
  EXPECT_NE(text.find("perf_thread_tick_events{tid=\"77\",thread=\"worker\"} 20\n"), std::string::npos);
  EXPECT_NE(text.find("perf_ticklog_events 20\n"), std::string::npos);
  EXPECT_EQ(text.find("# EOF"), std::string::npos);
  EXPECT_EQ(text.find("allocat"), std::string::npos) << "counting is inactive: no allocation metrics";
}

// A function timed on a sample of its calls (adaptive timing): the calls counter
// counts every call, the duration histogram the timed ones (its _count, +Inf bucket
// and _sum: the timed calls' durations), the seconds counters the estimates.
TEST(Metrics, ASampledFunctionsHistogramCountsItsTimedCallsAndItsCounterEveryCall) {
  snapshot s = one_function();
  function_stats& f = s.functions[0];
  f.calls = 1'000'000;
  f.timed_calls = 10;
  f.mean_ns = 2.5;
  f.timed_mean_ns = 2e8;
  const std::string text = format_metrics(s, metrics_format::prometheus);
  EXPECT_NE(text.find("perf_function_calls_total{" + labels + "} 1000000\n"), std::string::npos) << text;
  EXPECT_NE(text.find("perf_function_seconds_total{" + labels + "} 2\n"), std::string::npos);
  EXPECT_NE(text.find("perf_function_duration_seconds_bucket{" + labels + ",le=\"+Inf\"} 10\n" +
                      "perf_function_duration_seconds_sum{" + labels + "} 2\n" +
                      "perf_function_duration_seconds_count{" + labels + "} 10\n"),
            std::string::npos);
}

// The frame's families first, then the components' (core/metric_families.hpp) by
// their order: the page's order, which scrapers and dashboards never see change.
TEST(Metrics, TheFamiliesComeInTheOrderOfThePage) {
  snapshot s = one_function();
  s.allocations.counting = allocation_counting::interposed;
  thread_allocations worker;
  worker.tid = 77;
  worker.name = "worker";
  worker.frees = 2;
  s.allocations.threads.push_back(worker);
  s.samples.hz = 100;
  std::string types;
  const std::string text = format_metrics(s, metrics_format::prometheus);
  for (size_t at = text.find("# TYPE "); at != std::string::npos; at = text.find("# TYPE ", at + 1))
    types += text.substr(at + 7, text.find('\n', at) - at - 7) + "\n";
  EXPECT_EQ(types,
            "perf_function_calls_total counter\n"
            "perf_function_seconds_total counter\n"
            "perf_function_self_seconds_total counter\n"
            "perf_function_allocations_total counter\n"
            "perf_function_allocated_bytes_total counter\n"
            "perf_function_duration_seconds histogram\n"
            "perf_thread_calls_total counter\n"
            "perf_thread_tick_events gauge\n"
            "perf_thread_tick_dropped_total counter\n"
            "perf_thread_allocations_total counter\n"
            "perf_thread_allocated_bytes_total counter\n"
            "perf_thread_frees_total counter\n"
            "perf_thread_freed_bytes_total counter\n"
            "perf_ticklog_events gauge\n"
            "perf_ticklog_dropped_total counter\n"
            "perf_samples_total counter\n"
            "perf_samples_dropped_total counter\n");
  EXPECT_NE(text.find("perf_thread_frees_total{tid=\"77\",thread=\"worker\"} 2\n"), std::string::npos) << text;
}

TEST(Metrics, EveryFamilyHasTheSameBucketsInEveryProcess) {
  const std::string text = format_metrics(one_function(), metrics_format::prometheus);
  std::string bounds;
  for (size_t at = text.find(",le=\""); at != std::string::npos; at = text.find(",le=\"", at + 1))
    bounds += text.substr(at + 5, text.find('"', at + 5) - at - 5) + " ";
  EXPECT_EQ(bounds, "1e-07 3e-07 1e-06 3e-06 1e-05 3e-05 1e-04 3e-04 0.001 0.003 0.01 0.03 0.1 0.3 1 3 10 +Inf ");
}

TEST(Metrics, OpenMetricsNamesCounterFamiliesWithoutTotalAndEnds) {
  const std::string text = format_metrics(one_function(), metrics_format::openmetrics);
  EXPECT_NE(text.find("# TYPE perf_function_calls counter\nperf_function_calls_total{" + labels + "} 10\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("# TYPE perf_function_duration_seconds histogram\n"), std::string::npos);
  EXPECT_NE(text.find("# TYPE perf_thread_tick_events gauge\n"), std::string::npos);
  EXPECT_EQ(text.substr(text.size() - 6), "# EOF\n");
}

TEST(Metrics, AllocationsWhenCounted) {
  snapshot s = one_function();
  s.functions[0].alloc_total_count = 15;  // the row's totals, as function_row makes them (1.5 a call)
  s.functions[0].alloc_total_bytes = 640;
  s.allocations.counting = allocation_counting::interposed;
  s.allocations.threads.push_back({77, "worker", false, 15, 640, 14, 600, 100});
  const std::string text = format_metrics(s, metrics_format::prometheus);
  EXPECT_NE(text.find("perf_function_allocations_total{" + labels + "} 15\n"), std::string::npos) << text;
  EXPECT_NE(text.find("perf_function_allocated_bytes_total{" + labels + "} 640\n"), std::string::npos);
  EXPECT_NE(text.find("perf_thread_allocated_bytes_total{tid=\"77\",thread=\"worker\"} 640\n"), std::string::npos);
  EXPECT_NE(text.find("perf_thread_freed_bytes_total{tid=\"77\",thread=\"worker\"} 600\n"), std::string::npos);
}

// Every column of the function row with a /metrics family (report_format::function_columns)
// is served, its value the row's.
TEST(Metrics, EveryColumnWithAFamilyIsServedFromTheRow) {
  snapshot s = one_function();
  s.functions[0].alloc_total_count = 15;
  s.functions[0].alloc_total_bytes = 640;
  s.allocations.counting = allocation_counting::interposed;
  const function_stats& f = s.functions[0];
  const std::string text = format_metrics(s, metrics_format::prometheus);
  size_t families = 0;
  for (const report_format::function_column& c : report_format::function_columns) {
    const std::string name(c.metric_name);
    switch (c.metric) {
      case report_format::metric_kind::none: continue;
      case report_format::metric_kind::count:
        EXPECT_NE(text.find(name + "{" + labels + "} " + std::to_string(c.count(f)) + "\n"), std::string::npos) << name;
        break;
      case report_format::metric_kind::seconds:
        EXPECT_NE(text.find(name + "{" + labels + "} " + fmt::format("{}", c.number(f) / 1e9) + "\n"),
                  std::string::npos)
            << name;
        break;
      case report_format::metric_kind::histogram:
        EXPECT_NE(text.find(name + "_count{" + labels + "} " + std::to_string(f.timed_calls) + "\n"), std::string::npos)
            << name;
        break;
    }
    EXPECT_NE(text.find("# TYPE " + name + " "), std::string::npos) << name;
    ++families;
  }
  EXPECT_EQ(families, 6u);
}

TEST(Metrics, AnyRoomGivesTheSamePage) {
  snapshot s = one_function();
  s.functions.push_back(s.functions[0]);
  s.functions[1].name = std::string(5000, 'f');  // one line larger than the room
  s.samples.hz = 100;
  s.samples.total = 5;
  for (metrics_format format : {metrics_format::prometheus, metrics_format::openmetrics}) {
    const std::string whole = format_metrics(s, format, 1 << 22);
    EXPECT_EQ(format_metrics(s, format, 1), whole);
    EXPECT_EQ(format_metrics(s, format, 7), whole);
    EXPECT_EQ(format_metrics(s, format, 4096), whole);
    EXPECT_NE(whole.find("perf_samples_total 5\n"), std::string::npos) << whole;
    EXPECT_NE(whole.find("perf_function_calls_total{function=\"" + std::string(5000, 'f') + "\""), std::string::npos);
  }
}

TEST(Metrics, SecondsToTheNanosecond) {
  snapshot s = one_function();
  s.functions[0].total_ns = 12345.4;
  s.functions[0].self_ns = 0;
  s.functions[0].mean_ns = s.functions[0].timed_mean_ns = 123456789012.5 / 10;  // sum: 123.456789012(5) s
  const std::string text = format_metrics(s, metrics_format::prometheus);
  EXPECT_NE(text.find("perf_function_seconds_total{" + labels + "} 0.000012345\n"), std::string::npos) << text;
  EXPECT_NE(text.find("perf_function_self_seconds_total{" + labels + "} 0\n"), std::string::npos);
  EXPECT_NE(text.find("perf_function_duration_seconds_sum{" + labels + "} 123.456789013\n"), std::string::npos);
}

// Series keep their order from page to page, whatever the functions' times: by
// name, then file, then line.
TEST(Metrics, FunctionsInTheOrderOfTheirNames) {
  snapshot s = one_function();
  s.functions.resize(4, s.functions[0]);
  s.functions[0].name = "b";
  s.functions[1].name = "a";
  s.functions[1].line = 9;
  s.functions[2].name = "a";
  s.functions[2].file = "/src/w.cpp";
  s.functions[3].name = "a";
  s.functions[3].line = 3;
  const std::string text = format_metrics(s, metrics_format::prometheus);
  std::string order;
  for (size_t at = text.find("\nperf_function_calls_total{"); at != std::string::npos;
       at = text.find("\nperf_function_calls_total{", at + 1))
    order += text.substr(at + 1, text.find('}', at) - at) + "\n";
  EXPECT_EQ(order,
            "perf_function_calls_total{function=\"a\",file=\"/src/w.cpp\",line=\"25\"}\n"
            "perf_function_calls_total{function=\"a\",file=\"/src/x\xEF\xBF\xBD.cpp\",line=\"3\"}\n"
            "perf_function_calls_total{function=\"a\",file=\"/src/x\xEF\xBF\xBD.cpp\",line=\"9\"}\n"
            "perf_function_calls_total{function=\"b\",file=\"/src/x\xEF\xBF\xBD.cpp\",line=\"25\"}\n");
}

TEST(Metrics, TheAcceptHeaderPicksTheFormat) {
  EXPECT_EQ(metrics_format_for("application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5"),
            metrics_format::openmetrics);
  EXPECT_EQ(metrics_format_for("text/plain"), metrics_format::prometheus);
  EXPECT_EQ(metrics_format_for(""), metrics_format::prometheus);
  EXPECT_STREQ(metrics_content_type(metrics_format::openmetrics),
               "application/openmetrics-text; version=1.0.0; charset=utf-8");
}

// Every per-thread family, the components' and each thread's calls alike, folds the
// rows of exited threads into one per name, summing their samples.
TEST(Metrics, ExitedThreadsFoldIntoOneRowPerNameInEveryPerThreadFamily) {
  snapshot s = one_function();
  s.allocations.counting = allocation_counting::interposed;
  s.allocations.threads.push_back({77, "worker", false, 15, 640, 14, 600, 100});
  for (long tid : {5, 6}) {
    thread_stats t;
    t.tid = tid;
    t.name = "pool";
    t.exited = true;
    t.calls = static_cast<uint64_t>(tid);
    t.tick_events = 10 * static_cast<uint64_t>(tid);
    t.tick_dropped = 100 * static_cast<uint64_t>(tid);
    s.threads.push_back(t);
    s.allocations.threads.push_back({tid, "pool", true, 2, 32, 1, 16, 16});
  }
  const std::string text = format_metrics(s, metrics_format::prometheus);
  const auto lines_of = [&text](const std::string& family) {
    std::string lines;
    for (size_t at = text.find("\n" + family + "{"); at != std::string::npos;
         at = text.find("\n" + family + "{", at + 1))
      lines += text.substr(at + 1, text.find('\n', at + 1) - at);
    return lines;
  };
  EXPECT_EQ(lines_of("perf_thread_calls_total"),
            "perf_thread_calls_total{tid=\"77\",thread=\"worker\"} 10\n"
            "perf_thread_calls_total{tid=\"exited\",thread=\"pool\"} 11\n");
  EXPECT_EQ(lines_of("perf_thread_tick_events"),
            "perf_thread_tick_events{tid=\"77\",thread=\"worker\"} 20\n"
            "perf_thread_tick_events{tid=\"exited\",thread=\"pool\"} 110\n");
  EXPECT_EQ(lines_of("perf_thread_tick_dropped_total"),
            "perf_thread_tick_dropped_total{tid=\"77\",thread=\"worker\"} 0\n"
            "perf_thread_tick_dropped_total{tid=\"exited\",thread=\"pool\"} 1100\n");
  EXPECT_EQ(lines_of("perf_thread_freed_bytes_total"),
            "perf_thread_freed_bytes_total{tid=\"77\",thread=\"worker\"} 600\n"
            "perf_thread_freed_bytes_total{tid=\"exited\",thread=\"pool\"} 32\n");
}

// Each thread's calls are a family of the call statistics (measure/), registered as
// every component's is, not written by the page itself.
TEST(Metrics, EachThreadsCallsAreARegisteredFamily) {
  const std::vector<metric_family>& families = metric_families();
  const auto calls = std::find_if(families.begin(), families.end(), [](const metric_family& f) {
    return std::string_view(f.name) == "perf_thread_calls_total";
  });
  ASSERT_NE(calls, families.end());
  EXPECT_EQ(calls->per, metric_family::rows::threads);
  EXPECT_STREQ(calls->type, "counter");
  EXPECT_EQ(calls, families.begin()) << "first of the registered families, right after the functions'";
}

}  // namespace
}  // namespace perf::runtime
