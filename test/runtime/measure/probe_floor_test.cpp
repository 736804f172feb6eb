// The probe's floor kept between processes (measure/probe_floor.hpp): where the file
// is, what it keeps, and two processes of one program stating the same probe. (How a
// known floor settles the calibration: compensation_test.cpp.)
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>

#include "measure/probe_cost.hpp"
#include "measure/probe_floor.hpp"
#include "measure/quartered_floor.hpp"
#include "probe_runner.hpp"

namespace perf::runtime {
namespace {

// The configuration read from `env` alone.
probe_floor_config parsed(const std::map<std::string, std::string>& env) {
  return parse_probe_floor_config([&env](const char* name) -> const char* {
    const auto found = env.find(name);
    return found == env.end() ? nullptr : found->second.c_str();
  });
}

TEST(ProbeFloor, TheFileIsUnderTheCacheDirectoryUnlessSetOrOff) {
  const auto parse = [](const std::map<std::string, std::string>& env) { return parsed(env).path; };
  EXPECT_EQ(parse({{"HOME", "/home/u"}}), "/home/u/.cache/perf-instrument/probe-floor");
  EXPECT_EQ(parse({{"HOME", "/home/u"}, {"XDG_CACHE_HOME", "/c"}}), "/c/perf-instrument/probe-floor");
  EXPECT_EQ(parse({{"HOME", "/home/u"}, {"PERF_PROBE_FLOOR", "/tmp/f"}}), "/tmp/f");
  EXPECT_EQ(parse({{"HOME", "/home/u"}, {"PERF_PROBE_FLOOR", "off"}}), "");
  EXPECT_EQ(parse({}), "");
}

TEST(ProbeFloor, OnlyAFileNamedByTheVariableIsNamed) {
  const auto named = [](const std::map<std::string, std::string>& env) { return parsed(env).named; };
  EXPECT_FALSE(named({{"HOME", "/home/u"}}));
  EXPECT_TRUE(named({{"HOME", "/home/u"}, {"PERF_PROBE_FLOOR", "/tmp/f"}}));
  EXPECT_FALSE(named({{"HOME", "/home/u"}, {"PERF_PROBE_FLOOR", "off"}}));
}

struct probe_floor_file : ::testing::Test {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("probe_floor_test_" + std::to_string(getpid()));
  std::filesystem::path file = dir / "deeper" / "probe-floor";
  void SetUp() override { std::filesystem::create_directories(dir); }
  void TearDown() override { std::filesystem::remove_all(dir); }
};

TEST_F(probe_floor_file, KeepsOneFloorPerKeyAndSkipsWhatItCannotRead) {
  EXPECT_EQ(read_probe_floor(file.string(), "a"), std::nullopt) << "no file yet";
  EXPECT_EQ(write_probe_floor(file.string(), "a", kept_floor{{60.5, 20.25, 3, 2.5, 21}}), "");
  EXPECT_EQ(write_probe_floor(file.string(), "b", kept_floor{{90, 30, 3, 2, 31}}), "");
  EXPECT_EQ(write_probe_floor(file.string(), "a", kept_floor{{58, 20, 3, 2.5, 21}}), "");
  {
    std::ofstream append(file, std::ios::app);
    append << "c not-a-number 1 2 3 4\n";
  }
  EXPECT_EQ(perf::testing::read_file(file), "b 90 30 3 2 31\na 58 20 3 2.5 21\nc not-a-number 1 2 3 4\n");
  const std::optional<kept_floor> a = read_probe_floor(file.string(), "a");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->floor.outside, 58);
  EXPECT_EQ(a->floor.inside, 20);
  EXPECT_EQ(a->floor.inside_sampled, 21);
  EXPECT_EQ(a->above, 0u);
  EXPECT_EQ(read_probe_floor(file.string(), "b")->floor.outside, 90);
  EXPECT_EQ(read_probe_floor(file.string(), "c"), std::nullopt);
}

TEST_F(probe_floor_file, KeepsTheNewestThirtyTwoKeys) {
  for (int key = 0; key < 40; ++key)
    ASSERT_EQ(write_probe_floor(file.string(), "key" + std::to_string(key), kept_floor{{50, 20, 3, 2, 21}}), "");
  const std::string text = perf::testing::read_file(file);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 32);
  EXPECT_EQ(read_probe_floor(file.string(), "key7"), std::nullopt);
  EXPECT_TRUE(read_probe_floor(file.string(), "key8").has_value());
  EXPECT_TRUE(read_probe_floor(file.string(), "key39").has_value());
}

#if defined(__x86_64__)
// /proc/cpuinfo's first value of `field` ("?" if none).
std::string cpuinfo_field(const std::string& field) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos || line.compare(0, field.size(), field) != 0 ||
        line.find_first_not_of(" \t", field.size()) != colon)
      continue;
    return line.substr(line.find_first_not_of(' ', colon + 1));
  }
  return "?";
}

// The key's CPU is the one the kernel names, read from CPUID without /proc.
TEST(ProbeFloor, TheKeysCpuIsTheOneTheKernelNames) {
  std::string name = cpuinfo_field("model name");
  std::replace(name.begin(), name.end(), ' ', '_');
  const std::string cpu =
      name + "/" + cpuinfo_field("cpu family") + "/" + cpuinfo_field("model") + "/" + cpuinfo_field("stepping") + "/";
  const char code[] = "probe code";
  EXPECT_EQ(probe_floor_key(detail::clock_source::rdtsc, true, code, sizeof code).substr(0, cpu.size()), cpu);
}
#endif

TEST(ProbeFloor, TheKeyNamesTheCpuTheClockAndTheCode) {
  const char code[] = "probe code";
  const std::string key = probe_floor_key(detail::clock_source::rdtsc, true, code, sizeof code);
  EXPECT_EQ(key.find(' '), std::string::npos) << key;
  EXPECT_NE(key, probe_floor_key(detail::clock_source::rdtsc, false, code, sizeof code));
  EXPECT_NE(key, probe_floor_key(detail::clock_source::monotonic, true, code, sizeof code));
  EXPECT_NE(key, probe_floor_key(detail::clock_source::rdtsc, true, code, sizeof code - 1));
  EXPECT_EQ(key, probe_floor_key(detail::clock_source::rdtsc, true, code, sizeof code));
}

// The clock rate the report at `report` states, in ticks per ns.
double ghz(const std::filesystem::path& report) {
  return nlohmann::json::parse(perf::testing::read_file(report)).at("clock").at("ghz").get<double>();
}

// The probe program's stated probe, in ns, with the floor file at `file` (and the
// variables `env`, as `env`(1) takes them).
double stated_probe_ns(const std::filesystem::path& file, const std::filesystem::path& report,
                       const std::string& env = "") {
  const perf::testing::probe_result result = perf::testing::run_probe_program(
      PERF_TIMING_PROBE, env + " PERF_PROBE_FLOOR=" + file.string() + " PERF_REPORT=" + report.string());
  EXPECT_TRUE(WIFEXITED(result.status) && WEXITSTATUS(result.status) == 0) << result.output;
  return nlohmann::json::parse(perf::testing::read_file(report)).at("clock").at("probe_ns").get<double>();
}

// A floor in the file is what the next process states, even one far below what it
// measures: its measurements come out higher, as in a busy spell, and keep it.
TEST_F(probe_floor_file, TheNextProcessStatesTheFloorTheFileKeeps) {
  const std::filesystem::path report = dir / "report.json";
  // A process keeps a floor once its calibration confirms one (on a busy machine one
  // in forty did not): three processes at most.
  double first = 0;
  for (int run = 0; run < 3 && !std::filesystem::exists(file); ++run) first = stated_probe_ns(file, report);
  const std::string written = perf::testing::read_file(file);
  ASSERT_EQ(std::count(written.begin(), written.end(), '\n'), 1) << written;
  const std::string key = written.substr(0, written.find(' '));
  const std::optional<kept_floor> floor = read_probe_floor(file.string(), key);
  ASSERT_TRUE(floor.has_value()) << written;
  EXPECT_LE(stated_probe_ns(file, report), first * 1.0001) << "the same floor, or a lower one confirmed";
  EXPECT_EQ(write_probe_floor(file.string(), key, quartered(*floor)), "");
  const double quarter = stated_probe_ns(file, report);
  EXPECT_NEAR(quarter, first / 4, first / 100) << "the kept floor, not the process's own measurement";
}

// A floor in the file far below what the probe costs now (as after the machine
// changed): each process states it and counts itself above it, and the fifth in a row
// raises it to the lowest of their own figures and states that. A process whose own
// figure was never confirmed counts neither way, and one whose figure is far from the
// others' starts the count again (a busy machine's spells).
TEST_F(probe_floor_file, FiveProcessesInARowAboveTheKeptFloorRaiseIt) {
  const std::filesystem::path report = dir / "report.json";
  double first = 0;
  for (int run = 0; run < 3 && !std::filesystem::exists(file); ++run) first = stated_probe_ns(file, report);
  const std::string written = perf::testing::read_file(file);
  const std::string key = written.substr(0, written.find(' '));
  const std::optional<kept_floor> own = read_probe_floor(file.string(), key);
  ASSERT_TRUE(own.has_value()) << written;
  const kept_floor quarter = quartered(*own);
  ASSERT_EQ(write_probe_floor(file.string(), key, quarter), "");
  unsigned at_quarter = 0;
  for (int run = 0; run < 15; ++run) {
    const unsigned above_before = read_probe_floor(file.string(), key)->above;
    const double stated = stated_probe_ns(file, report);
    const kept_floor after = *read_probe_floor(file.string(), key);
    if (after.floor.outside == quarter.floor.outside) {
      EXPECT_NEAR(stated, first / 4, first / 100) << "run " << run;
      EXPECT_TRUE(after.above == above_before + 1 || after.above == above_before || after.above == 1)
          << above_before << " then " << after.above;
      ++at_quarter;
      continue;
    }
    EXPECT_EQ(above_before, processes_to_raise - 1) << "run " << run;
    EXPECT_EQ(after.above, 0u);
    EXPECT_GT(after.floor.outside, 2 * quarter.floor.outside) << "the lowest of the five processes' own figures";
    EXPECT_GT(stated, 2 * first / 4) << "the raised floor";
    EXPECT_GE(at_quarter, processes_to_raise - 1);
    return;
  }
  ADD_FAILURE() << "the floor was not raised in 15 processes";
}

// A process that subtracts nothing (PERF_COMPENSATE=off) states the kept floor and
// leaves the file as it is: it neither counts above the floor nor raises it.
TEST_F(probe_floor_file, AProcessWithoutCompensationLeavesTheFileAsItIs) {
  const std::filesystem::path report = dir / "report.json";
  for (int run = 0; run < 3 && !std::filesystem::exists(file); ++run) stated_probe_ns(file, report);
  const std::string written = perf::testing::read_file(file);
  const std::string key = written.substr(0, written.find(' '));
  const std::optional<kept_floor> own = read_probe_floor(file.string(), key);
  ASSERT_TRUE(own.has_value()) << written;
  ASSERT_EQ(write_probe_floor(file.string(), key, quartered(*own)), "");
  const std::string quarter = perf::testing::read_file(file);
  for (unsigned run = 0; run < processes_to_raise; ++run) {
    EXPECT_NEAR(stated_probe_ns(file, report, "PERF_COMPENSATE=off"), own->floor.outside / 4 / ghz(report),
                own->floor.outside / 100 / ghz(report));
    EXPECT_EQ(perf::testing::read_file(file), quarter) << "run " << run;
  }
}

// The count of processes above a floor and their lowest figure, kept with it.
TEST_F(probe_floor_file, KeepsTheCountOfProcessesAboveTheFloorAndTheLowestOfTheirFigures) {
  ASSERT_EQ(write_probe_floor(file.string(), "a", kept_floor{{23, 9, 3, 2, 9.5}, 2, {28.5, 10, 3, 2, 10.5}}), "");
  EXPECT_EQ(perf::testing::read_file(file), "a 23 9 3 2 9.5 2 28.5 10 3 2 10.5\n");
  const kept_floor a = *read_probe_floor(file.string(), "a");
  EXPECT_EQ(a.floor.outside, 23);
  EXPECT_EQ(a.above, 2u);
  EXPECT_EQ(a.lowest_above.outside, 28.5);
  EXPECT_EQ(a.lowest_above.inside_sampled, 10.5);
}

// What a process with a known floor uses and leaves for the next.
settled_probe_cost settled_with(double outside, bool new_floor, std::optional<double> above, bool undecided = false) {
  settled_probe_cost s;
  s.cost = {outside, outside / 2};
  s.confirmed = true;
  s.new_floor = new_floor;
  if (above) s.above = probe_cost{*above, *above / 2};
  s.undecided = undecided;
  return s;
}

TEST(ChooseFloor, TheFifthProcessInARowAboveTheFloorRaisesItToTheLowestOfTheirFigures) {
  std::optional<kept_floor> kept = kept_floor{{23, 11.5}};
  for (double figure : {30.0, 28.0, 29.5, 29.0}) {
    const floor_choice choice = choose_floor(kept, settled_with(23, false, figure));
    EXPECT_EQ(choice.use.outside, 23);
    ASSERT_TRUE(choice.write.has_value());
    kept = choice.write;
  }
  EXPECT_EQ(kept->above, 4u);
  EXPECT_EQ(kept->lowest_above.outside, 28);
  const floor_choice fifth = choose_floor(kept, settled_with(23, false, 29.5));
  EXPECT_EQ(fifth.use.outside, 28);
  ASSERT_TRUE(fifth.write.has_value());
  EXPECT_EQ(fifth.write->floor.outside, 28);
  EXPECT_EQ(fifth.write->floor.inside, 14);
  EXPECT_EQ(fifth.write->above, 0u);
}

// Five processes above the floor raise it only where their figures agree within 10%:
// one far from the lowest of those before it starts the count again from itself.
TEST(ChooseFloor, AFigureFarFromTheOthersAboveTheFloorStartsTheCountAgain) {
  const std::optional<kept_floor> kept = kept_floor{{23, 11.5}, 4, {28, 14}};
  const floor_choice spell = choose_floor(kept, settled_with(23, false, 40.0));
  EXPECT_EQ(spell.use.outside, 23);
  ASSERT_TRUE(spell.write.has_value());
  EXPECT_EQ(spell.write->floor.outside, 23);
  EXPECT_EQ(spell.write->above, 1u);
  EXPECT_EQ(spell.write->lowest_above.outside, 40);
  const floor_choice near = choose_floor(kept, settled_with(23, false, 30.5));
  EXPECT_EQ(near.use.outside, 28) << "the fifth in a row, within 10% of 28: raised";
}

TEST(ChooseFloor, AProcessThatAgreesWithTheFloorStartsTheCountAgainAndAnUndecidedOneLeavesIt) {
  const std::optional<kept_floor> kept = kept_floor{{23, 11.5}, 3, {28, 14}};
  const floor_choice undecided = choose_floor(kept, settled_with(23, false, std::nullopt, true));
  EXPECT_EQ(undecided.use.outside, 23);
  EXPECT_FALSE(undecided.write.has_value());
  const floor_choice agreed = choose_floor(kept, settled_with(23, false, std::nullopt));
  EXPECT_EQ(agreed.use.outside, 23);
  ASSERT_TRUE(agreed.write.has_value());
  EXPECT_EQ(agreed.write->floor.outside, 23);
  EXPECT_EQ(agreed.write->above, 0u);
  EXPECT_FALSE(choose_floor(kept_floor{{23, 11.5}}, settled_with(23, false, std::nullopt)).write.has_value())
      << "nothing to start again";
}

TEST(ChooseFloor, ALowerFloorConfirmedIsUsedAndKeptAndAnUnconfirmedFirstIsNot) {
  const floor_choice lower = choose_floor(kept_floor{{23, 11.5}, 2, {28, 14}}, settled_with(21, true, std::nullopt));
  EXPECT_EQ(lower.use.outside, 21);
  ASSERT_TRUE(lower.write.has_value());
  EXPECT_EQ(lower.write->floor.outside, 21);
  EXPECT_EQ(lower.write->above, 0u);
  settled_probe_cost unconfirmed = settled_with(25, false, std::nullopt);
  unconfirmed.confirmed = false;
  const floor_choice first = choose_floor(std::nullopt, unconfirmed);
  EXPECT_EQ(first.use.outside, 25);
  EXPECT_FALSE(first.write.has_value());
}

// A file PERF_PROBE_FLOOR names that cannot be written is warned of, once; a default
// place that cannot be is not (each process then settles its own figure). Three
// processes at most: a process keeps a floor only once its calibration confirms one.
TEST_F(probe_floor_file, AFloorThatCannotBeKeptWhereTheVariableSaysIsWarnedOf) {
  const std::filesystem::path not_a_directory = dir / "a-file";
  std::ofstream(not_a_directory) << "x";
  const std::string unwritable = (not_a_directory / "probe-floor").string();
  const std::string warning = "perf: PERF_PROBE_FLOOR: the probe's floor is not kept: " +
                              write_probe_floor(unwritable, "k", kept_floor{{1, 1, 1, 1, 1}});
  ASSERT_NE(warning.find("cannot write '" + unwritable + "': "), std::string::npos) << warning;
  bool warned = false;
  for (int run = 0; run < 3 && !warned; ++run) {
    const perf::testing::probe_result result =
        perf::testing::run_probe_program(PERF_TIMING_PROBE, "PERF_REPORT=off PERF_PROBE_FLOOR=" + unwritable);
    ASSERT_TRUE(WIFEXITED(result.status) && WEXITSTATUS(result.status) == 0) << result.output;
    warned = result.output.find(warning + "\n") != std::string::npos;
    EXPECT_EQ(result.output.find("PERF_PROBE_FLOOR"), warned ? result.output.find(warning) + 6 : std::string::npos)
        << result.output;
    EXPECT_EQ(result.output.rfind("PERF_PROBE_FLOOR"), result.output.find("PERF_PROBE_FLOOR")) << "once";
  }
  EXPECT_TRUE(warned) << warning;
  const perf::testing::probe_result in_default_place = perf::testing::run_probe_program(
      PERF_TIMING_PROBE, "-u PERF_PROBE_FLOOR PERF_REPORT=off XDG_CACHE_HOME=" + not_a_directory.string());
  EXPECT_EQ(in_default_place.output.find("PERF_PROBE_FLOOR"), std::string::npos) << in_default_place.output;
}

}  // namespace
}  // namespace perf::runtime
