#include "report/samples_section.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace perf::runtime {
namespace {

snapshot two_functions() {
  snapshot snap;
  sample_summary& s = snap.samples;
  s.hz = 100;
  s.clock = "cpu";
  s.total = 400;
  s.dropped = 2;
  s.probe_samples = 30;
  s.top_functions = {{"parse(std::string_view)", "src/parse.cpp", 0, 300, 0.75}, {"main", "src/main.cpp", 0, 100, 0.25}};
  s.top_lines = {{"parse(std::string_view)", "src/parse.cpp", 12, 280, 0.7}, {"main", "", 0, 100, 0.25}};
  s.threads = {{41, 400, {{"parse(std::string_view)", "src/parse.cpp", 0, 300, 0.75}, {"main", "src/main.cpp", 0, 100, 0.25}}}};
  s.measured = {{"parse", 300, 0.75}};
  snap.threads.resize(1);
  snap.threads[0].tid = 41;
  snap.threads[0].name = "worker";
  snap.functions.resize(1);
  snap.functions[0].name = "parse";
  snap.functions[0].self_ns = 2.5e6;
  return snap;
}

TEST(SamplesReport, TextNamesTheHottestFunctionsLinesAndThreads) {
  EXPECT_EQ(format_samples_text(two_functions()),
            "samples: 400 at 100 Hz of each thread's CPU time, 2 dropped\n"
            "  30 samples (7.5%) inside perf's own probes, charged below to the code that called them\n"
            "  hottest functions (innermost frame in the program's own code):\n"
            "   75.0%      300  parse(std::string_view)  src/parse.cpp\n"
            "   25.0%      100  main  src/main.cpp\n"
            "  hottest lines:\n"
            "   70.0%      280  src/parse.cpp:12  parse(std::string_view)\n"
            "   25.0%      100  ?  main\n"
            "  thread 41 (worker): 400 samples; parse(std::string_view)  75.0%, main  25.0%\n"
            "  measured functions, sampled share (samples inside, not in a measured callee):\n"
            "   75.0%      300  parse  (self 2.50 ms)\n");
}

TEST(SamplesReport, TextLeavesOutTheProbesLineWhenNoSampleWasInThem) {
  snapshot snap = two_functions();
  snap.samples.probe_samples = 0;
  EXPECT_EQ(format_samples_text(snap).find("probes"), std::string::npos);
}

TEST(SamplesReport, TextIsEmptyWhenSamplingIsOff) {
  EXPECT_EQ(format_samples_text(snapshot{}), "");
}

TEST(SamplesReport, JsonHasTheDocumentedFields) {
  const auto j = nlohmann::json::parse(format_samples_json(two_functions()));
  EXPECT_EQ(j.at("hz"), 100);
  EXPECT_EQ(j.at("clock"), "cpu");
  EXPECT_EQ(j.at("total"), 400);
  EXPECT_EQ(j.at("dropped"), 2);
  EXPECT_EQ(j.at("probe_samples"), 30);
  EXPECT_EQ(j.at("top").size(), 2u);
  EXPECT_EQ(j.at("top")[0].at("function"), "parse(std::string_view)");
  EXPECT_EQ(j.at("top")[0].at("samples"), 300);
  EXPECT_DOUBLE_EQ(j.at("top")[0].at("share"), 0.75);
  EXPECT_EQ(j.at("lines")[0].at("line"), 12);
  EXPECT_EQ(j.at("threads")[0].at("tid"), 41);
  EXPECT_EQ(j.at("threads")[0].at("samples"), 400);
  EXPECT_EQ(j.at("threads")[0].at("top")[1].at("function"), "main");
  EXPECT_EQ(j.at("measured")[0].at("name"), "parse");
  EXPECT_EQ(j.at("measured")[0].at("samples"), 300);
}

TEST(SamplesReport, SamplingStoppedBeforeTheEndIsSaidInTextAndJson) {
  snapshot snap = two_functions();
  snap.samples.stopped = "the program installed its own handler for SIGURG, the sampler's signal";
  const std::string text = format_samples_text(snap);
  EXPECT_EQ(text.substr(0, text.find("  30 samples")),
            "samples: 400 at 100 Hz of each thread's CPU time, 2 dropped\n"
            "  sampling stopped: the program installed its own handler for SIGURG, the sampler's signal\n");
  EXPECT_EQ(nlohmann::json::parse(format_samples_json(snap)).at("stopped"), snap.samples.stopped);
  EXPECT_FALSE(nlohmann::json::parse(format_samples_json(two_functions())).contains("stopped"));
}

}  // namespace
}  // namespace perf::runtime
