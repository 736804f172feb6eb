// The report formats and perf::write_report, on a snapshot made by hand.
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "perf/perf.hpp"
#include "report_format/function_columns.hpp"
#include "report_format/schema.hpp"

namespace perf {
namespace {

namespace fs = std::filesystem;

snapshot example() {
  snapshot s;
  s.pid = 4242;
  s.clock = {"rdtsc", 2.5, "calibrated"};
  function_stats parse;
  parse.name = "config::parse";
  parse.file = "/home/me/app/src/config.cpp";
  parse.line = 18;
  parse.calls = parse.timed_calls = 1234567;
  parse.total_ns = 12'345'678'901;
  parse.self_ns = 2'000'000;
  parse.mean_ns = parse.mean_ns_low = parse.mean_ns_high = parse.timed_mean_ns = 10'000.5;
  parse.min_ns = 950;
  parse.max_ns = 1'500'000;
  parse.stddev_ns = 85.25;
  parse.p50_ns = 9'990;
  parse.p90_ns = 12'000;
  parse.p99_ns = 123'456;
  parse.p999_ns = 654'321;
  parse.m2_ns2 = 8972385.1234567;
  parse.alloc_total_count = 2469134;
  parse.alloc_total_bytes = 98765432101;
  parse.histogram = {{5, 1}, {2400, 1234566}};
  function_stats quote;
  quote.name = "say \"hi\"\n";
  quote.calls = quote.timed_calls = 1;
  quote.total_ns = quote.self_ns = quote.mean_ns = quote.min_ns = quote.max_ns = 7.5;
  quote.mean_ns_low = quote.mean_ns_high = quote.timed_mean_ns = 7.5;
  function_stats load;
  load.name = "config::load";
  load.file = "/home/me/app/include/config.hpp";
  load.line = 3;
  load.calls = load.timed_calls = 1;
  load.total_ns = load.self_ns = load.mean_ns = load.min_ns = load.max_ns = 1e10;
  load.mean_ns_low = load.mean_ns_high = load.timed_mean_ns = 1e10;
  s.functions = {parse, load, quote};
  s.threads = {{101, "main", 1234567, false, 65536, 2469070}, {102, "worker", 1, true, 2, 0}};
  s.ticklog = {true, 65538, 2469070, 65536};
  return s;
}

TEST(TextReport, ATableInReadableUnitsSortedAsGiven) {
  EXPECT_EQ(format_text(example()),
            "perf-instrument report (pid 4242): 3 functions measured on 2 threads (1 exited); "
            "clock rdtsc at 2.500 GHz (calibrated)\n"
            "durations are wall-clock: a call's time includes any time its thread waited or was preempted\n"
            "sources under /home/me/app/\n"
            "function           calls    total     self     mean      min      max   stddev      p50      p99  where\n"
            "config::parse  1,234,567   12.3 s  2.00 ms  10.0 µs   950 ns  1.50 ms  85.2 ns  9.99 µs   123 µs  "
            "src/config.cpp:18\n"
            "config::load           1   10.0 s   10.0 s   10.0 s   10.0 s   10.0 s  0.00 ns  0.00 ns  0.00 ns  "
            "include/config.hpp:3\n"
            "say \"hi\"\\n             1  7.50 ns  7.50 ns  7.50 ns  7.50 ns  7.50 ns  0.00 ns  0.00 ns  0.00 ns\n"
            "tick log: 65,538 events kept, 2,469,070 dropped (ring of 65,536 events per thread; PERF_RING_EVENTS="
            "4194304 keeps the whole run)\n"
            "  thread 101 (main): 65,536 kept, 2,469,070 dropped\n");
}

// The second line says what the durations are and, when the run sampled, what the
// samples are: CPU time by default, wall-clock time with PERF_SAMPLE_CLOCK=wall.
TEST(TextReport, TheSecondLineSaysDurationsAreWallClockAndSamplesCpuTime) {
  snapshot s = example();
  s.samples.hz = 1000;
  s.samples.clock = "cpu";
  const std::string text = format_text(s);
  EXPECT_EQ(text.substr(text.find('\n') + 1, text.find("\nsources under") - text.find('\n')),
            "durations are wall-clock: a call's time includes any time its thread waited or was preempted; samples "
            "are CPU time: a thread is sampled only while it runs\n");
  s.samples.clock = "wall";
  const std::string wall = format_text(s);
  EXPECT_NE(wall.find("preempted; samples are wall-clock time too: a thread is sampled also while it waits\n"),
            std::string::npos)
      << wall;
}

TEST(TextReport, CountedAllocationsAddColumnsAndASection) {
  snapshot s = example();
  s.functions.resize(2);
  s.functions[0].alloc_count = 2.5;
  s.functions[0].alloc_bytes = 1234.4;
  s.allocations.counting = allocation_counting::interposed;
  s.allocations.threads = {{101, "main", false, 12, 1200, 10, 1000, 400}, {102, "worker", true, 1, 40, 1, 40, 40}};
  EXPECT_EQ(format_text(s),
            "perf-instrument report (pid 4242): 2 functions measured on 2 threads (1 exited); "
            "clock rdtsc at 2.500 GHz (calibrated)\n"
            "durations are wall-clock: a call's time includes any time its thread waited or was preempted\n"
            "sources under /home/me/app/\n"
            "function           calls   total     self     mean     min      max   stddev      p50      p99  "
            "allocs/call  bytes/call  where\n"
            "config::parse  1,234,567  12.3 s  2.00 ms  10.0 µs  950 ns  1.50 ms  85.2 ns  9.99 µs   123 µs  "
            "        2.5       1,234  src/config.cpp:18\n"
            "config::load           1  10.0 s   10.0 s   10.0 s  10.0 s   10.0 s  0.00 ns  0.00 ns  0.00 ns  "
            "          0           0  include/config.hpp:3\n"
            "tick log: 65,538 events kept, 2,469,070 dropped (ring of 65,536 events per thread; PERF_RING_EVENTS="
            "4194304 keeps the whole run)\n"
            "  thread 101 (main): 65,536 kept, 2,469,070 dropped\n"
            "allocations (interposed): 13 allocations of 1,240 bytes, 11 frees of 1,040 bytes, in all\n"
            "  thread 101 (main): 12 allocations, 1,200 bytes; 10 frees, 1,000 bytes; peak 400 live bytes\n"
            "  thread 102 (worker, exited): 1 allocation, 40 bytes; 1 free, 40 bytes; peak 40 live bytes\n");
  const nlohmann::json report = nlohmann::json::parse(format_json(s));
  EXPECT_EQ(report.at("functions").at(0).at("alloc_count"), 2.5);
  EXPECT_EQ(report.at("functions").at(0).at("alloc_bytes"), 1234.4);
  EXPECT_EQ(report.at("allocations"), nlohmann::json::parse(R"({"counting": "interposed", "threads": [
      {"tid": 101, "name": "main", "exited": false, "allocations": 12, "bytes": 1200, "frees": 10,
       "bytes_freed": 1000, "peak_live_bytes": 400, "threads": 1},
      {"tid": 102, "name": "worker", "exited": true, "allocations": 1, "bytes": 40, "frees": 1,
       "bytes_freed": 40, "peak_live_bytes": 40, "threads": 1}]})"));
}

// Calls that ended on another thread or stack than they began on (perf::switched_calls)
// get a line under the table, and one per function, most first; JSON the same list.
TEST(TextReport, SwitchedCallsHaveALinePerFunctionUnderTheTable) {
  snapshot s = example();
  s.functions.resize(1);
  s.ticklog.enabled = false;
  s.switched = {{"server::handle", "/home/me/app/src/server.cpp", 40, 177140}, {"co", "", 0, 1}};
  const std::string text = format_text(s);
  EXPECT_EQ(text.substr(text.find("switched")),
            "switched calls: 177,141 calls ended on another thread or stack than they began on (a fiber or coroutine "
            "switched inside them), in no figure above:\n"
            "  177,140  server::handle (/home/me/app/src/server.cpp:40)\n"
            "  1  co\n"
            "tick log: off (PERF_TICKS=off)\n");
  EXPECT_EQ(nlohmann::json::parse(format_json(s)).at("switched_calls"), nlohmann::json::parse(R"([
      {"name": "server::handle", "file": "/home/me/app/src/server.cpp", "line": 40, "calls": 177140},
      {"name": "co", "file": "", "line": 0, "calls": 1}])"));
  s.switched.clear();
  EXPECT_EQ(format_text(s).find("switched"), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(format_json(s)).at("switched_calls"), nlohmann::json::array());
}

TEST(TextReport, ATickLogThatDroppedNothingIsOneLine) {
  snapshot s = example();
  s.threads[0].tick_dropped = 0;
  s.ticklog.dropped = 0;
  const std::string text = format_text(s);
  EXPECT_EQ(text.substr(text.rfind('\n', text.size() - 2) + 1),
            "tick log: 65,538 events kept, 0 dropped (ring of 65,536 events per thread)\n");
}

TEST(TextReport, ALongNameKeepsBothEndsInEightyColumns) {
  snapshot s = example();
  s.functions.resize(1);
  s.functions[0].name = "dragonbox::traits<" + std::string(100, 'x') + ", µ>::remove_trailing_zeros";
  const std::string text = format_text(s);
  const std::string row = text.substr(text.find("dragonbox"));
  EXPECT_EQ(row.substr(0, row.find("  ")),
            "dragonbox::traits<" + std::string(21, 'x') + "…" + std::string(13, 'x') + ", µ>::remove_trailing_zeros");
}

TEST(TextReport, SaysWhenTheTickLogIsOff) {
  snapshot s = example();
  s.ticklog = {false, 0, 0, 0};
  const std::string text = format_text(s);
  EXPECT_EQ(text.substr(text.rfind('\n', text.size() - 2) + 1), "tick log: off (PERF_TICKS=off)\n");
}

// A function timed on a sample of its calls (adaptive timing): its total, self and
// mean are estimates, marked "~" and explained under the table; JSON says how many
// calls were timed and gives the mean's interval.
snapshot with_sampled_row() {
  snapshot s = example();
  function_stats hot;
  hot.name = "hash";
  hot.calls = 1'000'000;
  hot.timed_calls = 1'000;
  hot.total_ns = 2'500'000;
  hot.self_ns = 2'000'000;
  hot.mean_ns = 2.5;
  hot.mean_ns_low = 2.25;
  hot.mean_ns_high = 2.75;
  hot.timed_mean_ns = 2.4;
  hot.min_ns = hot.p50_ns = hot.max_ns = hot.p99_ns = 2.4;
  s.functions = {hot};
  return s;
}

TEST(TextReport, EstimatedFiguresAreMarkedAndExplained) {
  const std::string text = format_text(with_sampled_row());
  EXPECT_NE(text.find("function      calls     total      self      mean      min      max   stddev      p50      p99  "
                      "where\n"
                      "hash      1,000,000  ~2.50 ms  ~2.00 ms  ~2.50 ns  2.40 ns  2.40 ns  0.00 ns  2.40 ns  2.40 ns\n"
                      "~ estimated: timed on a random sample of its calls, every call counted (PERF_TIMING=adaptive); "
                      "min, max, stddev and percentiles are the timed calls'\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(format_text(example()).find("~"), std::string::npos) << "no mark where every call was timed";
}

TEST(JsonReport, AnEstimatedRowSaysHowManyCallsWereTimedAndTheMeansInterval) {
  const nlohmann::json row = nlohmann::json::parse(format_json(with_sampled_row())).at("functions").at(0);
  EXPECT_EQ(row.at("calls"), 1'000'000);
  EXPECT_EQ(row.at("timed_calls"), 1'000);
  EXPECT_EQ(row.at("timed_share"), 0.001);  // to four decimals
  EXPECT_EQ(row.at("mean_ns"), 2.5);
  EXPECT_EQ(row.at("mean_ns_low"), 2.2);  // written to a tenth, as every time
  EXPECT_EQ(row.at("mean_ns_high"), 2.8);
  EXPECT_EQ(row.at("moments").at("mean_ns"), 2.4) << "the moments are the timed calls'";
}

TEST(TextReport, DurationsFinerThanTheClockResolutionAreShownBelowIt) {
  snapshot s = example();
  s.clock.resolution_ns = 10.3;
  function_stats quick;
  quick.name = "quick";
  quick.calls = quick.timed_calls = 2;
  quick.total_ns = quick.self_ns = 30;
  quick.mean_ns = 15;
  quick.min_ns = quick.p50_ns = 0.48;
  quick.max_ns = quick.p99_ns = 29.52;
  quick.stddev_ns = 10.3;  // exactly the resolution: shown as it is
  s.functions = {quick};
  EXPECT_EQ(format_text(s),
            "perf-instrument report (pid 4242): 1 function measured on 2 threads (1 exited); "
            "clock rdtsc at 2.500 GHz (calibrated, resolution 10.3 ns)\n"
            "durations are wall-clock: a call's time includes any time its thread waited or was preempted\n"
            "function  calls    total     self     mean        min      max   stddev        p50      p99  where\n"
            "quick         2  30.0 ns  30.0 ns  15.0 ns  < 10.3 ns  29.5 ns  10.3 ns  < 10.3 ns  29.5 ns\n"
            "tick log: 65,538 events kept, 2,469,070 dropped (ring of 65,536 events per thread; PERF_RING_EVENTS="
            "4194304 keeps the whole run)\n"
            "  thread 101 (main): 65,536 kept, 2,469,070 dropped\n");
}

TEST(JsonReport, CarriesTheClockResolutionAndTheDurationsAsMeasured) {
  snapshot s = example();
  s.clock.resolution_ns = 10.3;
  s.functions[0].min_ns = 0.48;
  const nlohmann::json report = nlohmann::json::parse(format_json(s));
  EXPECT_EQ(report.at("clock").at("resolution_ns"), 10.3);  // one decimal, as every time
  EXPECT_EQ(report.at("functions").at(0).at("min_ns"), 0.5);
}

TEST(TextReport, NothingMeasuredIsOneLine) {
  snapshot s;
  s.pid = 1;
  s.clock = {"rdtscp", 3.0, "cpuid"};
  EXPECT_EQ(format_text(s),
            "perf-instrument report (pid 1): 0 functions measured on 0 threads (0 exited); "
            "clock rdtscp at 3.000 GHz (cpuid)\n");
}

// A program that measures nothing still gets the sections of what it did: here its
// allocations and samples (the tick log, with no thread measured or ticked, has none).
TEST(TextReport, WithNothingMeasuredTheOtherSectionsStillShow) {
  snapshot s;
  s.pid = 1;
  s.clock = {"rdtscp", 3.0, "cpuid"};
  s.ticklog = {true, 0, 0, 65536};
  s.allocations.counting = allocation_counting::interposed;
  s.allocations.threads = {{101, "main", false, 3, 300, 2, 200, 200}};
  s.samples.hz = 100;
  EXPECT_EQ(format_text(s),
            "perf-instrument report (pid 1): 0 functions measured on 0 threads (0 exited); "
            "clock rdtscp at 3.000 GHz (cpuid)\n"
            "allocations (interposed): 3 allocations of 300 bytes, 2 frees of 200 bytes, in all\n"
            "  thread 101 (main): 3 allocations, 300 bytes; 2 frees, 200 bytes; peak 200 live bytes\n"
            "samples: 0 at 100 Hz of each thread's CPU time, 0 dropped\n");
}

TEST(JsonReport, ParsesAndCarriesEveryField) {
  const nlohmann::json report = nlohmann::json::parse(format_json(example()));
  EXPECT_EQ(report.at("pid"), 4242);
  EXPECT_EQ(report.at("clock"), nlohmann::json::parse(R"({"source": "rdtsc", "ghz": 2.5, "frequency": "calibrated",
      "resolution_ns": 0.0, "probe_ns": 0.0, "probe_inside_ns": 0.0, "probe_high_ns": 0.0, "compensated": false,
      "durations": "wall"})"));
  const nlohmann::json& parse = report.at("functions").at(0);
  EXPECT_EQ(parse.at("name"), "config::parse");
  EXPECT_EQ(parse.at("file"), "/home/me/app/src/config.cpp");  // whole, where the table shortens it
  EXPECT_EQ(parse.at("line"), 18);
  EXPECT_EQ(parse.at("calls"), 1234567);
  EXPECT_EQ(parse.at("total_ns"), 12'345'678'901.0);
  EXPECT_EQ(parse.at("self_ns"), 2'000'000.0);
  EXPECT_EQ(parse.at("mean_ns"), 10'000.5);
  EXPECT_EQ(parse.at("min_ns"), 950.0);
  EXPECT_EQ(parse.at("max_ns"), 1'500'000.0);
  EXPECT_EQ(parse.at("stddev_ns"), 85.2);  // one decimal: tenths of a nanosecond
  EXPECT_EQ(parse.at("p50_ns"), 9'990.0);
  EXPECT_EQ(parse.at("p90_ns"), 12'000.0);
  EXPECT_EQ(parse.at("p99_ns"), 123'456.0);
  EXPECT_EQ(parse.at("p999_ns"), 654'321.0);
  // The additive fields for exact merging: full precision, integers, sparse buckets.
  EXPECT_EQ(parse.at("moments"), nlohmann::json::parse(R"({"mean_ns": 10000.5, "m2_ns2": 8972385.1234567})"));
  EXPECT_EQ(parse.at("alloc_total_count"), 2469134);
  EXPECT_EQ(parse.at("alloc_total_bytes"), 98765432101);
  EXPECT_EQ(parse.at("histogram"), nlohmann::json::parse("[[5, 1], [2400, 1234566]]"));
  EXPECT_EQ(report.at("functions").at(1).at("histogram"), nlohmann::json::array());
  EXPECT_EQ(report.at("schema_version"), json_schema_version);
  EXPECT_EQ(report.at("functions").at(2).at("name"), "say \"hi\"\n");
  EXPECT_EQ(report.at("threads"), nlohmann::json::parse(R"([
      {"tid": 101, "name": "main", "calls": 1234567, "exited": false, "tick_events": 65536, "tick_dropped": 2469070, "threads": 1},
      {"tid": 102, "name": "worker", "calls": 1, "exited": true, "tick_events": 2, "tick_dropped": 0, "threads": 1}])"));
  EXPECT_EQ(report.at("ticklog"),
            nlohmann::json::parse(R"({"enabled": true, "events": 65538, "dropped": 2469070, "ring_events": 65536})"));
}

TEST(JsonReport, WritesARowsFieldsInTheSchemasListOrderAndNoOther) {
  const nlohmann::ordered_json report = nlohmann::ordered_json::parse(format_json(example()));
  for (const nlohmann::ordered_json& row : report.at("functions")) {
    std::vector<std::string> keys;
    for (const auto& [key, value] : row.items()) keys.push_back(key);
    std::vector<std::string> listed;
    for (const auto& field : report_format::function_columns) listed.emplace_back(field.json);
    EXPECT_EQ(keys, listed);
    std::vector<std::string> moments;
    for (const auto& [key, value] : row.at("moments").items()) moments.push_back(key);
    EXPECT_EQ(moments, (std::vector<std::string>{"mean_ns", "m2_ns2"}));
  }
}

// The row's text as perf-report's corpus and every existing report hold it.
TEST(JsonReport, WritesARowByteForByte) {
  const std::string json = format_json(example());
  const size_t start = json.find("{\"name\": \"config::parse\"");
  ASSERT_NE(start, std::string::npos);
  EXPECT_EQ(json.substr(start, json.find('\n', start) - start),
            R"({"name": "config::parse", "file": "/home/me/app/src/config.cpp", "line": 18, "calls": 1234567, )"
            R"("timed_calls": 1234567, "timed_share": 1.0000, "total_ns": 12345678901.0, "self_ns": 2000000.0, )"
            R"("mean_ns": 10000.5, "mean_ns_low": 10000.5, "mean_ns_high": 10000.5, "min_ns": 950.0, )"
            R"("max_ns": 1500000.0, "stddev_ns": 85.2, "p50_ns": 9990.0, "p90_ns": 12000.0, "p99_ns": 123456.0, )"
            R"("p999_ns": 654321.0, "alloc_count": 0.00, "alloc_bytes": 0.0, )"
            R"("moments": {"mean_ns": 10000.5, "m2_ns2": 8972385.1234567}, "alloc_total_count": 2469134, )"
            R"("alloc_total_bytes": 98765432101, "probe_dominated": false, "histogram": [[5, 1], [2400, 1234566]]},)");
}

// example() as measured with a probe of 22.5 ns, the quoted function dominated by it.
snapshot with_probe() {
  snapshot s = example();
  s.clock.probe_ns = 22.5;
  s.clock.probe_inside_ns = 9.04;
  s.clock.compensated = true;
  s.functions[2].probe_dominated = true;
  s.overhead = {1'234'569, 1'234'569 * 22.5, 1, 1'000'000, 1'000'000 * 22.5, 4e9};
  return s;
}

TEST(TextReport, StatesTheProbeAndWhatItCostAndMarksTheFunctionsItDominates) {
  const std::string text = format_text(with_probe());
  EXPECT_EQ(text.substr(0, text.find('\n') + 1),
            "perf-instrument report (pid 4242): 3 functions measured on 2 threads (1 exited); "
            "clock rdtsc at 2.500 GHz (calibrated); probe 22.5 ns a call (9.04 ns inside), subtracted\n");
  EXPECT_NE(text.find("\nsay \"hi\"\\n *  "), std::string::npos) << text;
  EXPECT_NE(text.find("\nconfig::parse  1,234,567  "), std::string::npos) << text;  // unmarked
  EXPECT_NE(
      text.find("\nprobe: 1,234,569 measured calls x 22.5 ns = 27.8 ms, 0.7% of the process's CPU time (4.00 s)\n"
                "  * probe-dominated (median below 2 probe costs, 45.0 ns): 1 function, 1,000,000 calls, 22.5 ms of "
                "probe time: 81.0% of all probe time, 0.6% of the process's CPU time\ntick log: "),
      std::string::npos)
      << text;
}

TEST(TextReport, NeverStatesAProbeShareAboveTheProcesssCpuTime) {
  snapshot s = with_probe();
  s.overhead.process_cpu_ns = 20e6;  // 20 ms, below the 27.8 ms that calls x cost come to
  const std::string text = format_text(s);
  EXPECT_NE(text.find("\nprobe: 1,234,569 measured calls x 22.5 ns = 27.8 ms, more than the process's CPU time "
                      "(20.0 ms): the cost per call is too high for this run\n"
                      "  * probe-dominated (median below 2 probe costs, 45.0 ns): 1 function, 1,000,000 calls, 22.5 ms "
                      "of probe time: 81.0% of all probe time, more than the process's CPU time: the cost per call is "
                      "too high for this run\n"),
            std::string::npos)
      << text;
}

TEST(TextReport, SaysThatDurationsAreWallClockAndHowFarTheProbesMeasurementsSpread) {
  snapshot s = with_probe();
  s.clock.probe_high_ns = 23.0;  // within 3%: not worth a word
  std::string text = format_text(s);
  EXPECT_EQ(text.substr(text.find('\n') + 1, text.find("sources") - text.find('\n') - 1),
            "durations are wall-clock: a call's time includes any time its thread waited or was preempted\n");
  s.clock.probe_high_ns = 35.3;
  text = format_text(s);
  EXPECT_EQ(text.substr(text.find('\n') + 1, text.find("sources") - text.find('\n') - 1),
            "durations are wall-clock: a call's time includes any time its thread waited or was preempted; the probe "
            "measured 22.5 ns to 35.3 ns at start-up, the lowest subtracted\n");
}

TEST(TextReport, CountsTheTimedCallsCountedApartAsPreempted) {
  snapshot s = with_probe();
  s.overhead.preempted_calls = 3;
  s.overhead.preempted_ns = 41.2e6;
  EXPECT_NE(format_text(s).find("\n  3 timed calls of sampled functions counted apart as preempted or interrupted "
                                "(41.2 ms): counted as they were, not extrapolated to the untimed calls\n"),
            std::string::npos)
      << format_text(s);
  s.overhead.preempted_calls = 1;
  EXPECT_NE(format_text(s).find("\n  1 timed call of sampled functions counted apart as preempted or interrupted "
                                "(41.2 ms): counted as it was, not extrapolated to the untimed calls\n"),
            std::string::npos);
  const nlohmann::json report = nlohmann::json::parse(format_json(s));
  EXPECT_EQ(report.at("probe_overhead").at("preempted_calls"), 1);
  EXPECT_EQ(report.at("probe_overhead").at("preempted_ns"), 41.2e6);
}

TEST(TextReport, SaysWhenTheProbeWasNotSubtracted) {
  snapshot s = with_probe();
  s.clock.compensated = false;
  const std::string text = format_text(s);
  EXPECT_EQ(text.substr(0, text.find('\n') + 1),
            "perf-instrument report (pid 4242): 3 functions measured on 2 threads (1 exited); clock rdtsc at 2.500 GHz "
            "(calibrated); probe 22.5 ns a call (9.04 ns inside), not subtracted (PERF_COMPENSATE=off)\n");
}

TEST(JsonReport, CarriesTheProbeItsOverheadAndTheFunctionsItDominates) {
  const nlohmann::json report = nlohmann::json::parse(format_json(with_probe()));
  EXPECT_EQ(report.at("clock").at("probe_ns"), 22.5);
  EXPECT_EQ(report.at("clock").at("probe_inside_ns"), 9.04);
  EXPECT_EQ(report.at("clock").at("compensated"), true);
  EXPECT_EQ(report.at("functions").at(0).at("probe_dominated"), false);
  EXPECT_EQ(report.at("functions").at(2).at("probe_dominated"), true);
  EXPECT_EQ(report.at("probe_overhead"),
            nlohmann::json::parse(R"({"calls": 1234569, "untimed_calls": 0, "ns": 27777802.5,
      "dominated_functions": 1, "dominated_calls": 1000000, "dominated_ns": 22500000.0, "process_cpu_ns": 4000000000.0,
      "preempted_calls": 0, "preempted_ns": 0.0})"));
}

TEST(JsonReport, EmptySnapshotIsStillValid) {
  const nlohmann::json report = nlohmann::json::parse(format_json(snapshot{}));
  EXPECT_TRUE(report.at("functions").empty());
  EXPECT_TRUE(report.at("threads").empty());
}

void served() { PERF_MEASURE("report_test.served"); }

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(WriteReport, DumpsTheLiveStatisticsWithoutStopping) {
  const fs::path dir = fs::temp_directory_path() / ("perf-write-report-" + std::to_string(getpid()));
  fs::create_directories(dir);
  for (int i = 0; i < 4; ++i) served();
  ASSERT_TRUE(write_report((dir / "live-%p.json").string()));
  const fs::path written = dir / ("live-" + std::to_string(getpid()) + ".json");
  const nlohmann::json report = nlohmann::json::parse(read_file(written));
  bool found = false;
  for (const nlohmann::json& f : report.at("functions")) {
    if (f.at("name") != "report_test.served") continue;
    found = f.at("calls") == 4;
    uint64_t bucketed = 0;
    for (const nlohmann::json& bucket : f.at("histogram")) bucketed += bucket.at(1).get<uint64_t>();
    EXPECT_EQ(bucketed, 4u) << "every call is in the histogram";
    EXPECT_GE(f.at("moments").at("m2_ns2").get<double>(), 0.0);
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1) << "no temporary file left";
  fs::remove_all(dir);
}

TEST(WriteReport, AnHtmlPathGetsOnePageEmbeddingTheJsonReport) {
  const fs::path dir = fs::temp_directory_path() / ("perf-write-html-" + std::to_string(getpid()));
  fs::create_directories(dir);
  for (int i = 0; i < 3; ++i) served();
  ASSERT_TRUE(write_report((dir / "page.html").string()));
  const std::string page = read_file(dir / "page.html");
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  const std::string open = "<script id=\"data\" type=\"application/json\">";
  const size_t begin = page.find(open) + open.size();
  const nlohmann::json report = nlohmann::json::parse(page.substr(begin, page.find("</script>", begin) - begin));
  EXPECT_EQ(report.at("schema_version"), json_schema_version);
  EXPECT_EQ(page.find(" src="), std::string::npos) << "nothing from the network";
  EXPECT_EQ(page.find("<link"), std::string::npos) << "nothing from the network";
  fs::remove_all(dir);
}

TEST(WriteReport, AnUnwritablePathIsOneWarningAndFalse) {
  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(write_report("/nonexistent-dir/report.txt"));
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "perf: cannot write the report to '/nonexistent-dir/report.txt': No such file or directory\n");
}

}  // namespace
}  // namespace perf
