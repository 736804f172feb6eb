// perf-report ab: the order of the processes, the judgment across processes (Holm's
// control, exact figures, attribution to the function that slowed), the early stop,
// and every output format, on reports made by hand and on a fake program that hands
// them out (no measured program: each test takes well under a second).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "ab.hpp"
#include "ab_format.hpp"
#include "command_line.hpp"
#include "sample_reports.hpp"

namespace perf::perf_report {
namespace {

namespace fs = std::filesystem;
using testing::function_row;
using testing::report_json;

// A row of `calls` calls of `ticks` each at 2 GHz; self time `self_share` of it.
nlohmann::json row(const std::string& name, uint64_t ticks, uint64_t calls = 1000, double self_share = 1,
                   uint64_t allocations = 0) {
  nlohmann::json r = function_row(name, std::vector<uint64_t>(calls, ticks), 2.0, allocations);
  r["self_ns"] = r["total_ns"].get<double>() * self_share;
  return r;
}

report process(long pid, std::vector<nlohmann::json> rows) { return testing::parsed(report_json(pid, 2.0, rows)); }

// Process k's speed: within +-1.2% of 1, different for each k (a loaded machine).
double jitter(size_t k) { return 1 + 0.004 * static_cast<double>((k * 3) % 7) - 0.012; }

uint64_t ticks(double t) { return static_cast<uint64_t>(std::llround(t)); }

ab_options options_for(size_t runs, std::vector<std::string> rules = {}) {
  ab_options o;
  o.runs = runs;
  o.first_look = runs;
  for (const std::string& rule : rules) o.diff.rules.push_back(parse_fail_rule(rule));
  return o;
}

const ab_figure& figure_of(const ab_result& r, const std::string& name, metric m) {
  for (size_t i = 0; i < r.diff.functions.size(); ++i)
    if (r.diff.functions[i].name == name) return r.figures[i][m];
  throw std::runtime_error(name + " not in the result");
}

const function_diff& row_of(const ab_result& r, const std::string& name) {
  for (const function_diff& d : r.diff.functions)
    if (d.name == name) return d;
  throw std::runtime_error(name + " not in the result");
}

TEST(Ab, ProcessesAlternateBaseNewNewBase) {
  std::string order;
  for (size_t i = 0; i < 8; ++i) order += side_of_process(i) == ab_side::base ? 'B' : 'N';
  EXPECT_EQ(order, "BNNBBNNB");
}

TEST(Ab, LooksAtTheFirstThenThreeMoreTimesEvenly) {
  ab_options o;
  std::string looks;
  for (size_t n = 1; n <= o.runs; ++n)
    if (o.is_look(n)) looks += std::to_string(n) + " ";
  EXPECT_EQ(looks, "8 12 16 20 ");
  EXPECT_EQ(o.looks(), 4u);
  o.runs = 10, o.first_look = 3;
  EXPECT_EQ(o.looks(), 5u);  // 3 5 7 9 10
}

TEST(Ab, MediansOnACoarseClockMoveWithTheShareOfCallsOnEachStep) {
  // A clock of 10 ns steps at 2 GHz: 600 calls on the step of 80 ticks (40 ns), 400 on
  // 100 ticks. The median's rank, 500, lies 5/6 into the first step's calls; spread over
  // the step (10 ns) about its bucket's middle (80.5 ticks, 40.25 ns), not over the
  // bucket's one tick.
  histogram h;
  h.ghz = 2;
  h.buckets = {{detail::bucket_index(80), 600}, {detail::bucket_index(100), 400}};
  EXPECT_NEAR(h.interpolated_quantile_ns(0.5, 10), 40.25 + (5.0 / 6 - 0.5) * 10, 1e-9);
  EXPECT_NEAR(h.interpolated_quantile_ns(0.5), 40.25 + (5.0 / 6 - 0.5) * 0.5, 1e-9);
}

TEST(Ab, HolmKeepsTheUnchangedQuietAndFlagsTheChange) {
  // 40 unchanged functions, each process's speed drawn anew per function, and one 10%
  // slower; 8 processes per side. Uncorrected, some unchanged function looks changed
  // at 5%; after Holm's adjustment none is flagged, and the slower one still is.
  std::vector<report> base, now;
  uint64_t x = 12345;
  auto draw = [&] {  // within +-3%
    x = x * 6364136223846793005u + 1442695040888963407u;
    return 0.97 + 0.06 * static_cast<double>(x >> 11) / 9007199254740992.0;
  };
  for (long k = 0; k < 8; ++k)
    for (bool is_new : {false, true}) {
      std::vector<nlohmann::json> rows;
      for (int f = 0; f < 40; ++f) rows.push_back(row(fmt::format("f{}", f), ticks(1000 * draw())));
      rows.push_back(row("slow", ticks(1000 * jitter(static_cast<size_t>(k)) * (is_new ? 1.1 : 1))));
      (is_new ? now : base).push_back(process(k, rows));
    }
  const ab_result r = judge_processes(base, now, options_for(8, {"mean>+5%"}));
  EXPECT_EQ(r.tests, 41u * 4);
  size_t uncorrected = 0;
  for (const function_diff& d : r.diff.functions) {
    if (d.name == "slow") continue;
    uncorrected += figure_of(r, d.name, metric::mean).p < 0.05;
    EXPECT_FALSE(d.slower_or_faster()) << d.name;
  }
  EXPECT_GE(uncorrected, 1u);
  EXPECT_TRUE(row_of(r, "slow")[metric::mean].beyond_noise);
  EXPECT_LT(figure_of(r, "slow", metric::mean).p_holm, 0.05);
  ASSERT_EQ(r.diff.broken.size(), 1u);
  EXPECT_EQ(r.diff.broken[0], "mean>+5%: slow mean +10.0% (499 ns -> 549 ns)");
}

TEST(Ab, CallsAndAllocationsAreComparedExactly) {
  std::vector<report> base, now;
  for (long k = 0; k < 6; ++k) {
    base.push_back(process(k, {row("f", 1000, 1000, 1, 2), row("g", 1000, 1000)}));
    now.push_back(process(k, {row("f", 1000, 1000, 1, 3), row("g", 1000, 1001)}));
  }
  const ab_result r = judge_processes(base, now, options_for(6, {"calls>+0%", "alloc>+0%"}));
  EXPECT_TRUE(figure_of(r, "g", metric::calls).exact);
  EXPECT_FALSE(figure_of(r, "g", metric::calls).judged);
  EXPECT_TRUE(row_of(r, "g")[metric::calls].beyond_noise);
  EXPECT_TRUE(row_of(r, "f")[metric::alloc].beyond_noise);
  EXPECT_FALSE(row_of(r, "f")[metric::calls].beyond_noise);
  EXPECT_EQ(r.diff.broken, (std::vector<std::string>{"calls>+0%: g calls +0.1% (1000 -> 1001)",
                                                     "alloc>+0%: f alloc +50.0% (2.00 -> 3.00)"}));
}

TEST(Ab, ACallerFlaggedOnlyThroughItsCalleeSaysSo) {
  // outer: 2000 ticks, of which its own 400; inner (its callee, 1600 ticks) 25% slower.
  std::vector<report> base, now;
  for (long k = 0; k < 8; ++k) {
    const double j = jitter(static_cast<size_t>(k));
    for (bool is_new : {false, true}) {
      const double inner = 1600 * j * (is_new ? 1.25 : 1);
      nlohmann::json outer = row("outer", ticks(400 * j + inner));
      outer["self_ns"] = 400 * j / 2 * 1000;  // ns: 400 ticks at 2 GHz, 1000 calls
      (is_new ? now : base).push_back(process(k, {outer, row("inner", ticks(inner))}));
    }
  }
  const ab_result r = judge_processes(base, now, options_for(8));
  EXPECT_TRUE(row_of(r, "inner")[metric::self].beyond_noise);
  EXPECT_FALSE(row_of(r, "inner").through_callees);
  EXPECT_TRUE(row_of(r, "outer")[metric::mean].beyond_noise);
  EXPECT_FALSE(row_of(r, "outer")[metric::self].beyond_noise);
  EXPECT_TRUE(row_of(r, "outer").through_callees);
  EXPECT_NE(r.diff.verdict.find("; outer slower mean +20.0% (through its callees: self time unchanged)"),
            std::string::npos)
      << r.diff.verdict;
}

// A fake measured program: appends its side to `log` and hands out the side's next
// prepared report (SIDE-N.json in the directory) as its PERF_REPORT.
class AbRuns : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / fmt::format("perf-report-ab-{}-{}", getpid(),
                                                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    std::ofstream(dir_ / "fake.sh") << "echo $1 >> \"$2/log\"\n"
                                       "n=$(grep -c \"^$1\\$\" \"$2/log\")\n"
                                       "cp \"$2/$1-$n.json\" \"$PERF_REPORT\"\n";
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<std::string> fake(const std::string& side) const {
    return {"sh", (dir_ / "fake.sh").string(), side, dir_.string()};
  }
  // Reports for `count` processes per side: f the same on both, g `factor` slower.
  void prepare(size_t count, double factor) const {
    for (size_t k = 1; k <= count; ++k)
      for (bool is_new : {false, true})
        std::ofstream(dir_ / fmt::format("{}-{}.json", is_new ? "new" : "base", k))
            << report_json(
                   static_cast<long>(k), 2.0,
                   {row("f", ticks(1000 * jitter(k))), row("g", ticks(1000 * jitter(k + 3) * (is_new ? factor : 1)))})
                   .dump();
  }
  std::string log() const {
    std::ifstream in(dir_ / "log");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  fs::path dir_;
};

TEST_F(AbRuns, RunsTheSidesAlternatelyEachWithItsOwnReport) {
  prepare(4, 1.0);
  ab_options o = options_for(4);
  o.base_command = fake("base"), o.new_command = fake("new");
  const ab_result r = run_ab(o);
  EXPECT_EQ(log(), "base\nnew\nnew\nbase\nbase\nnew\nnew\nbase\n");
  EXPECT_EQ(r.order, (std::vector<ab_side>{ab_side::base, ab_side::now, ab_side::now, ab_side::base, ab_side::base,
                                           ab_side::now, ab_side::now, ab_side::base}));
  EXPECT_EQ(r.stopped, "4 processes per side (--runs)");
}

TEST_F(AbRuns, StopsOnceEveryGatedFigureIsDecided) {
  // g twice as slow, gated at +20%, looks at 3, 5, 7, 9 and 10 processes per side:
  // seven are the fewest whose interval, at 5% over 5 looks and 8 figures, can exclude
  // the limit (1/3432 < 0.05/5/8/2 < 1/924).
  prepare(10, 2.0);
  ab_options o = options_for(10, {"p50>+20%"});
  o.first_look = 3;
  o.base_command = fake("base"), o.new_command = fake("new");
  const ab_result r = run_ab(o);
  EXPECT_EQ(r.looks, 5u);
  EXPECT_EQ(r.order.size(), 14u);
  EXPECT_EQ(r.stopped, "every gated figure decided after 7 processes per side");
  EXPECT_TRUE(r.all_decided);
  ASSERT_EQ(r.diff.broken.size(), 1u);
  EXPECT_EQ(r.diff.broken[0].substr(0, 25), "p50>+20%: g p50 +100.0% (");
}

TEST_F(AbRuns, SavesTheSpreadBetweenProcessesThatDiffReadsBack) {
  // f's mean per call in the four processes of each side: 500, 506, 498 and 504 ns.
  prepare(4, 1.0);
  const std::string floor_path = (dir_ / "floor.json").string();
  std::ostringstream out, err;
  const auto quoted = [](const std::vector<std::string>& words) {
    std::string line;
    for (const std::string& w : words) line += "'" + w + "' ";
    return line;
  };
  EXPECT_EQ(run_command_line({"ab", "--base", quoted(fake("base")), "--new", quoted(fake("new")), "--runs", "4",
                              "--save-noise", floor_path},
                             out, err),
            0)
      << err.str();
  const process_floor floor = read_process_floor(floor_path, 1 << 20);
  EXPECT_EQ(floor.source, floor_path);
  EXPECT_NEAR(floor.of("f", metric::mean), 506.0 / 498 - 1, 1e-9);
  EXPECT_NEAR(floor.of("f", metric::p50), 506.0 / 498 - 1, 1e-9);
  EXPECT_NEAR(floor.figures[size_t(metric::mean)], std::max(floor.of("f", metric::mean), floor.of("g", metric::mean)),
              1e-12);
  // diff reads it; a file that is not one is refused by name.
  std::ofstream(dir_ / "a.json") << report_json(1, 2.0, {row("f", 1000)}).dump();
  std::ofstream(dir_ / "b.json") << report_json(2, 2.0, {row("f", 1100)}).dump();
  out.str("");
  EXPECT_EQ(run_command_line({"diff", (dir_ / "a.json").string(), (dir_ / "b.json").string(), "--noise-from",
                              floor_path, "--fail-if", "mean>+5%"},
                             out, err),
            1)
      << err.str();
  EXPECT_NE(out.str().find("(" + floor_path + ": p50 "), std::string::npos) << out.str();
  err.str("");
  EXPECT_EQ(run_command_line({"diff", (dir_ / "a.json").string(), (dir_ / "b.json").string(), "--noise-from",
                              (dir_ / "a.json").string()},
                             out, err),
            2);
  EXPECT_EQ(err.str(), "perf-report: " + (dir_ / "a.json").string() +
                           ": not a between-process floor (perf-report ab --save-noise writes one)\n");
}

TEST_F(AbRuns, AProcessThatFailsOrWritesNoReportStopsWithStatusTwo) {
  std::ostringstream out, err;
  EXPECT_EQ(run_command_line({"ab", "--base", "sh -c 'exit 3'", "--new", "true"}, out, err), 2);
  EXPECT_EQ(err.str(), "perf-report: --base 'sh -c exit 3': exited with status 3\n");
  err.str("");
  EXPECT_EQ(run_command_line({"ab", "--base", "true", "--new", "true"}, out, err), 2);
  EXPECT_EQ(err.str().substr(0, err.str().find(" PERF_REPORT was ")),
            "perf-report: --base 'true': wrote no report (is the program measured by perf-instrument?");
  err.str("");
  EXPECT_EQ(run_command_line({"ab", "--base", "/nonexistent/app", "--new", "true"}, out, err), 2);
  EXPECT_EQ(err.str(),
            "perf-report: --base '/nonexistent/app': cannot start /nonexistent/app: No such file or directory\n");
}

}  // namespace
}  // namespace perf::perf_report
