// The report formats and perf::write_report, on a snapshot made by hand.
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "perf/perf.hpp"

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
  parse.calls = 1234567;
  parse.total_ns = 12'345'678'901;
  parse.self_ns = 2'000'000;
  parse.mean_ns = 10'000.5;
  parse.min_ns = 950;
  parse.max_ns = 1'500'000;
  parse.stddev_ns = 85.25;
  parse.p50_ns = 9'990;
  parse.p90_ns = 12'000;
  parse.p99_ns = 123'456;
  parse.p999_ns = 654'321;
  function_stats quote;
  quote.name = "say \"hi\"\n";
  quote.calls = 1;
  quote.total_ns = quote.self_ns = quote.mean_ns = quote.min_ns = quote.max_ns = 7.5;
  function_stats load;
  load.name = "config::load";
  load.file = "/home/me/app/include/config.hpp";
  load.line = 3;
  load.calls = 1;
  load.total_ns = load.self_ns = load.mean_ns = load.min_ns = load.max_ns = 1e10;
  s.functions = {parse, load, quote};
  s.threads = {{101, "main", 1234567, false, 65536, 2469070}, {102, "worker", 1, true, 2, 0}};
  s.ticklog = {true, 65538, 2469070, 65536};
  return s;
}

TEST(TextReport, ATableInReadableUnitsSortedAsGiven) {
  EXPECT_EQ(format_text(example()),
            "perf-instrument report (pid 4242): 3 functions measured on 2 threads (1 exited); "
            "clock rdtsc at 2.500 GHz (calibrated)\n"
            "sources under /home/me/app/\n"
            "function           calls    total     self     mean      min      max   stddev      p50      p99  where\n"
            "config::parse  1,234,567   12.3 s  2.00 ms  10.0 µs   950 ns  1.50 ms  85.2 ns  9.99 µs   123 µs  src/config.cpp:18\n"
            "config::load           1   10.0 s   10.0 s   10.0 s   10.0 s   10.0 s  0.00 ns  0.00 ns  0.00 ns  include/config.hpp:3\n"
            "say \"hi\"\\n             1  7.50 ns  7.50 ns  7.50 ns  7.50 ns  7.50 ns  0.00 ns  0.00 ns  0.00 ns\n"
            "tick log: 65,538 events kept, 2,469,070 dropped (ring of 65,536 events per thread; PERF_RING_EVENTS "
            "keeps more)\n"
            "  thread 101 (main): 65,536 kept, 2,469,070 dropped\n");
}

TEST(TextReport, CountedAllocationsAddColumnsAndASection) {
  snapshot s = example();
  s.functions.resize(2);
  s.functions[0].alloc_count = 2.5;
  s.functions[0].alloc_bytes = 1234.4;
  s.allocations.counting = "interposed";
  s.allocations.threads = {{101, "main", false, 12, 1200, 10, 1000, 400}, {102, "worker", true, 1, 40, 1, 40, 40}};
  EXPECT_EQ(format_text(s),
            "perf-instrument report (pid 4242): 2 functions measured on 2 threads (1 exited); "
            "clock rdtsc at 2.500 GHz (calibrated)\n"
            "sources under /home/me/app/\n"
            "function           calls   total     self     mean     min      max   stddev      p50      p99  "
            "allocs/call  bytes/call  where\n"
            "config::parse  1,234,567  12.3 s  2.00 ms  10.0 µs  950 ns  1.50 ms  85.2 ns  9.99 µs   123 µs  "
            "        2.5       1,234  src/config.cpp:18\n"
            "config::load           1  10.0 s   10.0 s   10.0 s  10.0 s   10.0 s  0.00 ns  0.00 ns  0.00 ns  "
            "          0           0  include/config.hpp:3\n"
            "tick log: 65,538 events kept, 2,469,070 dropped (ring of 65,536 events per thread; PERF_RING_EVENTS "
            "keeps more)\n"
            "  thread 101 (main): 65,536 kept, 2,469,070 dropped\n"
            "allocations (interposed): 13 allocations of 1,240 bytes, 11 frees of 1,040 bytes, in all\n"
            "  thread 101 (main): 12 allocations, 1,200 bytes; 10 frees, 1,000 bytes; peak 400 live bytes\n"
            "  thread 102 (worker, exited): 1 allocations, 40 bytes; 1 frees, 40 bytes; peak 40 live bytes\n");
  const nlohmann::json report = nlohmann::json::parse(format_json(s));
  EXPECT_EQ(report.at("functions").at(0).at("alloc_count"), 2.5);
  EXPECT_EQ(report.at("functions").at(0).at("alloc_bytes"), 1234.4);
  EXPECT_EQ(report.at("allocations"), nlohmann::json::parse(R"({"counting": "interposed", "threads": [
      {"tid": 101, "name": "main", "exited": false, "allocations": 12, "bytes": 1200, "frees": 10,
       "bytes_freed": 1000, "peak_live_bytes": 400},
      {"tid": 102, "name": "worker", "exited": true, "allocations": 1, "bytes": 40, "frees": 1,
       "bytes_freed": 40, "peak_live_bytes": 40}]})"));
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

TEST(TextReport, DurationsFinerThanTheClockResolutionAreShownBelowIt) {
  snapshot s = example();
  s.clock.resolution_ns = 10.3;
  function_stats quick;
  quick.name = "quick";
  quick.calls = 2;
  quick.total_ns = quick.self_ns = 30;
  quick.mean_ns = 15;
  quick.min_ns = quick.p50_ns = 0.48;
  quick.max_ns = quick.p99_ns = 29.52;
  quick.stddev_ns = 10.3;  // exactly the resolution: shown as it is
  s.functions = {quick};
  EXPECT_EQ(format_text(s),
            "perf-instrument report (pid 4242): 1 function measured on 2 threads (1 exited); "
            "clock rdtsc at 2.500 GHz (calibrated, resolution 10.3 ns)\n"
            "function  calls    total     self     mean        min      max   stddev        p50      p99  where\n"
            "quick         2  30.0 ns  30.0 ns  15.0 ns  < 10.3 ns  29.5 ns  10.3 ns  < 10.3 ns  29.5 ns\n"
            "tick log: 65,538 events kept, 2,469,070 dropped (ring of 65,536 events per thread; PERF_RING_EVENTS "
            "keeps more)\n"
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
  s.allocations.counting = "interposed";
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
  EXPECT_EQ(report.at("clock"), nlohmann::json::parse(
                                   R"({"source": "rdtsc", "ghz": 2.5, "frequency": "calibrated", "resolution_ns": 0.0})"));
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
  EXPECT_EQ(report.at("functions").at(2).at("name"), "say \"hi\"\n");
  EXPECT_EQ(report.at("threads"), nlohmann::json::parse(R"([
      {"tid": 101, "name": "main", "calls": 1234567, "exited": false, "tick_events": 65536, "tick_dropped": 2469070},
      {"tid": 102, "name": "worker", "calls": 1, "exited": true, "tick_events": 2, "tick_dropped": 0}])"));
  EXPECT_EQ(report.at("ticklog"),
            nlohmann::json::parse(R"({"enabled": true, "events": 65538, "dropped": 2469070, "ring_events": 65536})"));
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
  for (const nlohmann::json& f : report.at("functions"))
    if (f.at("name") == "report_test.served") found = f.at("calls") == 4;
  EXPECT_TRUE(found);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1) << "no temporary file left";
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
