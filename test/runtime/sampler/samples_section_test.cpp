#include "sampler/samples_section.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

#include "report_format/text_format.hpp"

namespace perf::runtime {

using report_format::display_width;

namespace {

snapshot two_functions() {
  snapshot snap;
  sample_summary& s = snap.samples;
  s.hz = 100;
  s.clock = "cpu";
  s.source = "perf_event";
  s.total = 400;
  s.interrupts = 400;
  s.dropped = 2;
  s.probe_samples = 30;
  s.top_functions = {{"parse(std::string_view)", "/home/me/app/src/parse.cpp", 0, 300, 0.75, 0.7055, 0.7900},
                     {"main", "/home/me/app/src/main.cpp", 0, 100, 0.25, 0.2100, 0.2945}};
  s.top_lines = {{"parse(std::string_view)", "/home/me/app/src/parse.cpp", 12, 280, 0.7}, {"main", "", 0, 100, 0.25}};
  s.threads = {{41,
                400,
                {{"parse(std::string_view)", "/home/me/app/src/parse.cpp", 0, 300, 0.75},
                 {"main", "/home/me/app/src/main.cpp", 0, 100, 0.25}}}};
  s.measured = {{"parse", 300, 0.75}};
  snap.threads.resize(1);
  snap.threads[0].tid = 41;
  snap.threads[0].name = "worker";
  snap.functions.resize(1);
  snap.functions[0].name = "parse";
  snap.functions[0].file = "/home/me/app/src/parse.cpp";  // the sources directory: /home/me/app/src/
  snap.functions[0].self_ns = 2.5e6;
  return snap;
}

TEST(SamplesReport, TextNamesTheHottestFunctionsLinesAndThreads) {
  EXPECT_EQ(format_samples_text(two_functions()),
            "samples: 400 at 100 Hz of each thread's CPU time (perf_event task clock), 2 dropped\n"
            "  30 samples (7.5%) inside perf's own probes, charged below to the code that called them\n"
            "  hottest functions (innermost frame in the program's own code; share, 95% interval, samples):\n"
            "   75.0% (70.5-79.0)      300  parse(...)  parse.cpp\n"
            "   25.0% (21.0-29.4)      100  main  main.cpp\n"
            "  hottest lines:\n"
            "   70.0%      280  parse.cpp:12  parse(...)\n"
            "   25.0%      100  ?  main\n"
            "  thread 41 (worker): 400 samples; parse(...)  75.0%, main  25.0%\n"
            "  measured functions, sampled share of CPU time (samples inside, not in a measured callee); self time "
            "wall-clock:\n"
            "   75.0%      300  parse  (self 2.50 ms)\n");
}

// The section's paths are those of the function table: below the directory named by
// "sources under DIR/"; a file outside it (a library's header) keeps its whole path.
TEST(SamplesReport, TextShowsPathsBelowTheSourcesDirectoryAndOthersWhole) {
  snapshot snap = two_functions();
  snap.functions.resize(2);
  snap.functions[1].name = "load";
  snap.functions[1].file = "/home/me/app/include/load.hpp";  // the sources directory: /home/me/app/
  snap.samples.top_functions[1].file = "/usr/include/vector.h";
  const std::string text = format_samples_text(snap);
  EXPECT_NE(text.find("   75.0% (70.5-79.0)      300  parse(...)  src/parse.cpp\n"), std::string::npos) << text;
  EXPECT_NE(text.find("   25.0% (21.0-29.4)      100  main  /usr/include/vector.h\n"), std::string::npos) << text;
  EXPECT_NE(text.find("   70.0%      280  src/parse.cpp:12  parse(...)\n"), std::string::npos) << text;
}

// Sampled wall-clock time says so beside the measured functions' shares.
TEST(SamplesReport, TheMeasuredSharesSayWhatTimeTheSamplesAre) {
  snapshot snap = two_functions();
  snap.samples.clock = "wall";
  EXPECT_NE(format_samples_text(snap).find(
                "  measured functions, sampled share of wall-clock time (samples inside, not in a measured callee); "
                "self time wall-clock:\n"),
            std::string::npos);
}

// One of anything is named in the singular: a thread's sample, the probes' sample, the
// interrupt the shares rest on.
TEST(SamplesReport, OneSampleOneInterruptAreSingular) {
  snapshot snap = two_functions();
  snap.samples.hz = 1000;
  snap.samples.source = "timer";
  snap.samples.total = 2;
  snap.samples.interrupts = 1;
  snap.samples.probe_samples = 1;
  snap.samples.threads = {{41, 1, {}}, {42, 1, {}}};
  const std::string text = format_samples_text(snap);
  EXPECT_NE(text.find("  1000 Hz requested, timer delivered 500 Hz (kernel tick): shares from 1 interrupt\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  1 sample (50.0%) inside perf's own probes"), std::string::npos) << text;
  EXPECT_NE(text.find("  thread 41 (worker): 1 sample\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  thread 42: 1 sample\n"), std::string::npos) << text;
}

// Above the kernel's tick a CPU-time timer's signal counts several periods: the second
// line says how many signals the shares rest on.
TEST(SamplesReport, TextStatesTheRateATimerDeliveredAndTheInterruptsBehindTheShares) {
  snapshot snap = two_functions();
  snap.samples.hz = 1000;
  snap.samples.source = "timer";
  snap.samples.interrupts = 104;
  const std::string text = format_samples_text(snap);
  EXPECT_EQ(text.substr(0, text.find("  30 samples")),
            "samples: 400 of each thread's CPU time, 2 dropped\n"
            "  1000 Hz requested, timer delivered 260 Hz (kernel tick): shares from 104 interrupts\n");
  snap.samples.interrupts = 400;  // as many signals as samples: the rate asked for
  const std::string full_rate = format_samples_text(snap);
  EXPECT_EQ(full_rate.substr(0, full_rate.find('\n')),
            "samples: 400 at 1000 Hz of each thread's CPU time (timer), 2 dropped");
}

// Long signatures are shown by their elided names, in 120 columns; two functions
// whose elided names are alike keep their whole signatures; JSON keeps every signature.
TEST(SamplesReport, TextShowsElidedNamesUnlessTwoAreAlikeAndJsonKeepsSignatures) {
  snapshot snap = two_functions();
  const std::string long_signature =
      "std::vector<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, "
      "std::allocator<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > > > "
      "logs::split<char>(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&, char)";
  snap.samples.top_functions = {{long_signature, "src/split.cpp", 0, 200, 0.5, 0.45, 0.55},
                                {"logs::parse(int)", "src/parse.cpp", 0, 100, 0.25, 0.21, 0.29},
                                {"logs::parse(long)", "src/parse.cpp", 0, 100, 0.25, 0.21, 0.29},
                                {std::string(150, 'x') + "::operator()() const", "/" + std::string(90, 'd') + "/f.cpp",
                                 0, 1, 0.0025, 0.0001, 0.0140}};
  snap.samples.top_lines = snap.samples.top_functions;
  snap.samples.threads[0].top_functions = snap.samples.top_functions;
  const std::string text = format_samples_text(snap);
  EXPECT_NE(text.find("   50.0% (45.0-55.0)      200  logs::split<...>(...)  src/split.cpp\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("  logs::parse(int)  src/parse.cpp\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  logs::parse(long)  src/parse.cpp\n"), std::string::npos) << text;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) EXPECT_LE(display_width(line), 120u) << line;
  const auto j = nlohmann::json::parse(format_samples_json(snap));
  EXPECT_EQ(j.at("top")[0].at("function"), long_signature);
}

TEST(SamplesReport, TextLeavesOutTheProbesLineWhenNoSampleWasInThem) {
  snapshot snap = two_functions();
  snap.samples.probe_samples = 0;
  EXPECT_EQ(format_samples_text(snap).find("probes"), std::string::npos);
}

TEST(SamplesReport, TextIsEmptyWhenSamplingIsOff) { EXPECT_EQ(format_samples_text(snapshot{}), ""); }

TEST(SamplesReport, JsonHasTheDocumentedFields) {
  const auto j = nlohmann::json::parse(format_samples_json(two_functions()));
  EXPECT_EQ(j.at("hz"), 100);
  EXPECT_EQ(j.at("clock"), "cpu");
  EXPECT_EQ(j.at("source"), "perf_event");
  EXPECT_EQ(j.at("total"), 400);
  EXPECT_EQ(j.at("interrupts"), 400);
  EXPECT_EQ(j.at("dropped"), 2);
  EXPECT_EQ(j.at("probe_samples"), 30);
  EXPECT_EQ(j.at("top").size(), 2u);
  EXPECT_EQ(j.at("top")[0].at("function"), "parse(std::string_view)");
  EXPECT_EQ(j.at("top")[0].at("samples"), 300);
  EXPECT_DOUBLE_EQ(j.at("top")[0].at("share"), 0.75);
  EXPECT_DOUBLE_EQ(j.at("top")[0].at("share_low"), 0.7055);
  EXPECT_DOUBLE_EQ(j.at("top")[0].at("share_high"), 0.79);
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
            "samples: 400 at 100 Hz of each thread's CPU time (perf_event task clock), 2 dropped\n"
            "  sampling stopped: the program installed its own handler for SIGURG, the sampler's signal\n");
  EXPECT_EQ(nlohmann::json::parse(format_samples_json(snap)).at("stopped"), snap.samples.stopped);
  EXPECT_FALSE(nlohmann::json::parse(format_samples_json(two_functions())).contains("stopped"));
}

}  // namespace
}  // namespace perf::runtime
