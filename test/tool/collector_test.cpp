// The planner's rules seen through the collector, one construct each, on real files.
#include "collecting.hpp"

namespace perf::tool {
namespace {

using Collector = Collecting;

TEST_F(Collector, ATemplateIsInstrumentedOnceInItsPattern) {
  const collected c = collect(
      "template <class T> [[perf::measure]] T id(T x) { return x; }\n"
      "template long id<long>(long);\n"
      "int main() { return id(1) + static_cast<int>(id(2.0)) + static_cast<int>(id('a')); }\n");
  EXPECT_EQ(c.edits.replacements.size(), 1u);
  EXPECT_EQ(c.rewritten(),
            "template <class T> [[perf::measure]] T id(T x) { PERF_INSTRUMENT(\"id<T>\"); return x; }\n"
            "template long id<long>(long);\n"
            "int main() { return id(1) + static_cast<int>(id(2.0)) + static_cast<int>(id('a')); }\n");
}

TEST_F(Collector, AConstructorsScopeFollowsItsMemberInitList) {
  const collected c = collect("struct s {\n  [[perf::measure]] s() : a(1), b{2} {}\n  int a, b;\n};\n");
  EXPECT_EQ(c.rewritten(),
            "struct s {\n  [[perf::measure]] s() : a(1), b{2} { PERF_INSTRUMENT(\"s::s\");}\n  int a, b;\n};\n");
}

TEST_F(Collector, AFunctionTryBlockIsMeasuredInsideTheTry) {
  const collected c = collect("[[perf::measure]] int f() try { return 1; } catch (...) { return 0; }\n");
  EXPECT_EQ(c.rewritten(),
            "[[perf::measure]] int f() try { PERF_INSTRUMENT(\"f\"); return 1; } catch (...) { return 0; }\n");
}

TEST_F(Collector, TheScopeFollowsADigraphBraceWhole) {
  const collected c = collect("[[perf::measure]] int f() <% return 1; %>\n");
  EXPECT_EQ(c.rewritten(), "[[perf::measure]] int f() <% PERF_INSTRUMENT(\"f\"); return 1; %>\n");
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
      "1 a: consteval: it runs only during compilation", "2 b", "3 c::c: defaulted: it has no body to measure",
      "3 c::c: deleted: it has no body to measure",
      "5 d: body spelled inside a macro definition: an edit there would reach every expansion of the macro"};
  EXPECT_EQ(c.selected, expected);
  EXPECT_EQ(c.edits.replacements.size(), 1u);
  EXPECT_NE(c.rewritten().find("constexpr int b() { PERF_INSTRUMENT_CONSTEXPR(\"b\"); return 2; }"), std::string::npos);
}

TEST_F(Collector, ABodyFromAMacroDefinitionIsNotEditedThroughAMacroArgument) {
  const collected c = collect(
      "#define BODY { return 1; }\n"
      "#define DEFINE(definition) definition\n"
      "DEFINE([[perf::measure]] int f() BODY)\n"
      "DEFINE([[perf::measure]] int g() { return 2; })\n");
  const std::vector<std::string> expected = {
      "3 f: body spelled inside a macro definition: an edit there would reach every expansion of the macro", "4 g"};
  EXPECT_EQ(c.selected, expected);
  EXPECT_EQ(c.rewritten(),
            "#define BODY { return 1; }\n"
            "#define DEFINE(definition) definition\n"
            "DEFINE([[perf::measure]] int f() BODY)\n"
            "DEFINE([[perf::measure]] int g() { PERF_INSTRUMENT(\"g\"); return 2; })\n");
}

TEST_F(Collector, ACoroutineIsSkippedEvenAsATemplate) {
  const collected c = collect(
      "#include <coroutine>\n"
      "struct task { struct promise_type {\n"
      "  task get_return_object() { return {}; }\n"
      "  std::suspend_never initial_suspend() { return {}; }\n"
      "  std::suspend_never final_suspend() noexcept { return {}; }\n"
      "  void return_void() {}\n"
      "  void unhandled_exception() {} }; };\n"
      "[[perf::measure]] task run() { co_return; }\n"
      "template <class T> [[perf::measure]] task run_template(T) { co_return; }\n",
      "-std=c++20");
  const std::vector<std::string> expected = {
      "8 run: coroutine: a scope cannot follow it across suspensions",
      "9 run_template<T>: coroutine: a scope cannot follow it across suspensions"};
  EXPECT_EQ(c.selected, expected);
  EXPECT_TRUE(c.edits.replacements.empty());
}

TEST_F(Collector, ConstexprBeforeCxx20IsSkippedButImplicitlyConstexprLambdasKeepAPlainScope) {
  const collected c = collect(
      "[[perf::measure]] constexpr int b() { return 2; }\n"
      "int main() {\n"
      "  auto implicit = [] [[perf::measure]] (int x) { return x; };\n"
      "  auto spelled = [] [[perf::measure]] (int x) constexpr { return x; };\n"
      "  return implicit(1) + spelled(2) + b(); }\n",
      "-std=c++17");
  const std::vector<std::string> expected = {
      "1 b: constexpr before C++20: the scope would stop it being a constant expression", "3 main::(lambda at line 3)",
      "4 main::(lambda at line 4): constexpr before C++20: the scope would stop it being a constant expression"};
  EXPECT_EQ(c.selected, expected);
  EXPECT_NE(c.rewritten().find("(int x) { PERF_INSTRUMENT(\"main::(lambda at line 3)\"); return x; }"),
            std::string::npos);
}

TEST_F(Collector, ACTranslationUnitIsNeverGivenCxx) {
  selection everything;
  ASSERT_EQ(llvm::toString(everything.add_filter(".*")), "");
  const collected c = collect("int f(void) { return 1; }\n", "-std=c11", everything, "input.c");
  EXPECT_EQ(c.selected, std::vector<std::string>{"1 f: C: the measuring scope needs C++"});
  EXPECT_TRUE(c.edits.replacements.empty());
}

TEST_F(Collector, InstrumentedCodeIsLeftAsItIsAndAStaleLabelIsReplaced) {
  const collected c = collect(
      "#define PERF_INSTRUMENT(name) (void)name\n"
      "[[perf::measure]] int f() { PERF_INSTRUMENT(\"f\"); return 1; }\n"
      "[[perf::measure(\"new\")]] int g() { PERF_INSTRUMENT(\"old\"); return 2; }\n");
  EXPECT_EQ(c.selected, (std::vector<std::string>{"2 f", "3 new"}));
  EXPECT_EQ(c.rewritten(),
            "#define PERF_INSTRUMENT(name) (void)name\n"
            "[[perf::measure]] int f() { PERF_INSTRUMENT(\"f\"); return 1; }\n"
            "[[perf::measure(\"new\")]] int g() { PERF_INSTRUMENT(\"new\"); return 2; }\n");
}

TEST_F(Collector, FilesOutsideTheProjectAreNeverEdited) {
  write(outside_dir / "library.hpp",
        "inline int library_function() { return 1; }\n"
        "[[perf::measure]] inline int marked_library_function() { return 2; }\n");
  selection everything;
  ASSERT_EQ(llvm::toString(everything.add_filter(".*")), "");
  const collected c =
      collect("#include \"library.hpp\"\nint mine() { return library_function(); }\n", "-std=c++17", everything);
  ASSERT_EQ(c.selected.size(), 2u);
  EXPECT_EQ(c.selected[0], "2 mine");
  EXPECT_EQ(c.selected[1],
            "2 marked_library_function: outside the project " + std::filesystem::canonical(project_dir).string());
  EXPECT_EQ(c.rewritten(),
            "#include \"library.hpp\"\nint mine() { PERF_INSTRUMENT(\"mine\"); return library_function(); }\n");
}

TEST_F(Collector, AFileIncludedInsideADeclarationHasTheUnitsMainFilePrefixed) {
  write(project_dir / "methods.inc", "[[perf::measure]] int size() const { return 3; }\n");
  const collected c = collect("struct widget {\n#include \"methods.inc\"\n};\n");
  EXPECT_EQ(c.selected, std::vector<std::string>{"1 widget::size"});
  EXPECT_TRUE(c.edits.prefix);  // the main file's prefix comes before the class
}

TEST_F(Collector, AFileIncludedAtFileScopeLeavesTheMainFileAlone) {
  write(project_dir / "functions.hpp", "[[perf::measure]] inline int size() { return 3; }\n");
  const collected c = collect("#include \"functions.hpp\"\nnamespace n { int unrelated(); }\n");
  EXPECT_EQ(c.selected, std::vector<std::string>{"1 size"});
  EXPECT_FALSE(c.edits.prefix);
}

TEST_F(Collector, ABodyWrittenOutsideTheProjectIsNotEdited) {
  write(outside_dir / "body.inc", "{ return 1; }\n");
  const collected c = collect("[[perf::measure]] int f()\n#include \"body.inc\"\n");
  EXPECT_EQ(c.selected, std::vector<std::string>{"1 f: its body is outside the project " +
                                                 std::filesystem::canonical(project_dir).string()});
  EXPECT_TRUE(c.edits.replacements.empty());
}

TEST_F(Collector, LabelsComeFromEverySpellingWithTheirEscapes) {
  const collected c = collect(R"code([[perf::measure("tab\there")]] int a() { return 1; }
[[perf::measure("two " "parts")]] int b() { return 2; }
[[clang::annotate("perf::measure", "annotated")]] int c() { return 3; }
[[perf::measure("declared")]] int d();
int d() { return 4; }
)code");
  EXPECT_EQ(c.selected, (names{"1 tab\there", "2 two parts", "3 annotated", "5 declared"}));
  EXPECT_NE(c.rewritten().find(R"(int a() { PERF_INSTRUMENT("tab\there"); return 1; })"), std::string::npos);
  EXPECT_TRUE(c.edits.prefix);
}

TEST_F(Collector, MisuseOfTheAttributeIsAnErrorOfTheUnit) {
  EXPECT_FALSE(collect("[[perf::measure]] int x = 0;\n").parsed);
  EXPECT_FALSE(collect("[[perf::measure(1)]] int f() { return 0; }\n").parsed);
  EXPECT_FALSE(collect("[[perf::measure(\"a\", \"b\")]] int f() { return 0; }\n").parsed);
  EXPECT_FALSE(collect("[[clang::annotate(\"perf::measure\")]] int x = 0;\n").parsed);
  EXPECT_FALSE(collect("[[clang::annotate(\"perf::measure\", 2)]] int f() { return 0; }\n").parsed);
  EXPECT_TRUE(collect("[[perf::measure(\"a\")]] int f() { return 0; }\n").parsed);
}

}  // namespace
}  // namespace perf::tool
