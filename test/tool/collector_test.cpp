// What one translation unit contributes: the planner's rules seen through the
// collector, on real files (the project is a temporary directory).
#include <gtest/gtest.h>

#include <clang/Tooling/CompilationDatabase.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include "lib/collector.hpp"

namespace perf::tool {
namespace {

namespace fs = std::filesystem;

struct collected {
  std::string code;
  std::map<unsigned, std::string> insertions;  // in input.cpp
  std::vector<std::string> selected;           // "line name" or "line name: reason"

  // The code with the insertions, for readable expectations.
  std::string rewritten() const { return apply_insertions(code, insertions, ""); }
};

class Collector : public ::testing::Test {
 protected:
  fs::path project_dir = fs::temp_directory_path() / ("perf-collector-" + std::to_string(::getpid()));
  fs::path outside_dir = fs::temp_directory_path() / ("perf-outside-" + std::to_string(::getpid()));

  void SetUp() override {
    fs::create_directories(project_dir);
    fs::create_directories(outside_dir);
  }
  void TearDown() override {
    fs::remove_all(project_dir);
    fs::remove_all(outside_dir);
  }

  static void write(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

  collected collect(const std::string& code, const std::string& standard = "-std=c++17",
                    const selection& chosen = selection()) {
    const fs::path input = project_dir / "input.cpp";
    write(input, code);
    clang::tooling::FixedCompilationDatabase database(
        project_dir.string(), {standard, "-resource-dir=" PERF_CLANG_RESOURCE_DIR, "-I" + outside_dir.string()});
    clang::tooling::ClangTool tool(database, {input.string()});
    edit_set edits;
    const project where{fs::canonical(project_dir).string()};
    EXPECT_EQ(tool.run(make_collector(chosen, where, edits).get()), 0);
    collected result{code, {}, {}};
    const auto insertions = edits.insertions();
    if (const auto found = insertions.find(fs::canonical(input).string()); found != insertions.end())
      result.insertions = found->second;
    for (const selected_function& f : edits.selected())
      result.selected.push_back(std::to_string(f.line) + " " + f.name +
                                (f.skip_reason.empty() ? "" : ": " + f.skip_reason));
    return result;
  }
};

TEST_F(Collector, ATemplateIsInstrumentedOnceInItsPattern) {
  const collected c = collect(
      "template <class T> [[perf::measure]] T id(T x) { return x; }\n"
      "int main() { return id(1) + static_cast<int>(id(2.0)) + static_cast<int>(id('a')); }\n");
  EXPECT_EQ(c.insertions.size(), 1u);
  EXPECT_EQ(c.rewritten(),
            "template <class T> [[perf::measure]] T id(T x) { PERF_INSTRUMENT(\"id\"); return x; }\n"
            "int main() { return id(1) + static_cast<int>(id(2.0)) + static_cast<int>(id('a')); }\n");
}

TEST_F(Collector, AConstructorsScopeFollowsItsMemberInitList) {
  const collected c = collect("struct s {\n  [[perf::measure]] s() : a(1), b{2} {}\n  int a, b;\n};\n");
  EXPECT_EQ(c.rewritten(), "struct s {\n  [[perf::measure]] s() : a(1), b{2} { PERF_INSTRUMENT(\"s::s\");}\n  int a, b;\n};\n");
}

TEST_F(Collector, AFunctionTryBlockIsMeasuredInsideTheTry) {
  const collected c = collect("[[perf::measure]] int f() try { return 1; } catch (...) { return 0; }\n");
  EXPECT_EQ(c.rewritten(), "[[perf::measure]] int f() try { PERF_INSTRUMENT(\"f\"); return 1; } catch (...) { return 0; }\n");
}

TEST_F(Collector, EveryUnmeasurableConstructIsListedWithItsReason) {
  const collected c = collect(
      "[[perf::measure]] consteval int a() { return 1; }\n"
      "[[perf::measure]] constexpr int b() { return 2; }\n"
      "struct c { [[perf::measure]] c() = default; [[perf::measure]] c(int) = delete; };\n"
      "#define D int d() { return 4; }\n"
      "[[perf::measure]] D\n",
      "-std=c++20");
  const std::vector<std::string> expected = {
      "1 a: consteval: it runs only during compilation",
      "2 b",
      "3 c::c: defaulted: it has no body to measure",
      "3 c::c: deleted: it has no body to measure",
      "5 d: body spelled inside a macro definition"};
  EXPECT_EQ(c.selected, expected);
  EXPECT_EQ(c.insertions.size(), 1u);
  EXPECT_NE(c.rewritten().find("constexpr int b() { PERF_INSTRUMENT_CONSTEXPR(\"b\"); return 2; }"), std::string::npos);
}

TEST_F(Collector, ConstexprBeforeCxx20IsSkippedButLambdasKeepAPlainScope) {
  const collected c = collect(
      "[[perf::measure]] constexpr int b() { return 2; }\n"
      "int main() { auto l = [] [[perf::measure]] { return 3; }; return l() + b(); }\n",
      "-std=c++17");
  const std::vector<std::string> expected = {
      "1 b: constexpr before C++20: the scope would stop it being a constant expression",
      "2 main::(lambda at line 2)"};
  EXPECT_EQ(c.selected, expected);
  EXPECT_NE(c.rewritten().find("[] [[perf::measure]] { PERF_INSTRUMENT(\"main::(lambda at line 2)\"); return 3; }"),
            std::string::npos);
}

TEST_F(Collector, InstrumentedCodeIsLeftAsItIs) {
  const collected c = collect(
      "#define PERF_INSTRUMENT(name) (void)name\n"
      "[[perf::measure]] int f() { PERF_INSTRUMENT(\"f\"); return 1; }\n");
  EXPECT_TRUE(c.insertions.empty());
  EXPECT_EQ(c.selected, std::vector<std::string>{"2 f"});
}

TEST_F(Collector, FilesOutsideTheProjectAreNeverEdited) {
  write(outside_dir / "library.hpp", "inline int library_function() { return 1; }\n");
  selection everything;
  ASSERT_EQ(everything.add_filter(".*"), "");
  const collected c = collect("#include \"library.hpp\"\nint mine() { return library_function(); }\n", "-std=c++17",
                              everything);
  EXPECT_EQ(c.selected, std::vector<std::string>{"2 mine"});
  EXPECT_EQ(c.rewritten(),
            "#include \"library.hpp\"\nint mine() { PERF_INSTRUMENT(\"mine\"); return library_function(); }\n");
}

}  // namespace
}  // namespace perf::tool
