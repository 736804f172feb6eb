// The inserted text, and taking it out again byte for byte.
#include <gtest/gtest.h>

#include "lib/instrumentation_text.hpp"

namespace perf::tool {
namespace {

TEST(InstrumentationText, PrefixIncludesTheHeaderAndRestoresLineNumbers) {
  EXPECT_EQ(file_prefix("/src/a.cpp"),
            "#include <perf/instrumented.hpp> // perf-instrument\n#line 1 \"/src/a.cpp\"\n");
  EXPECT_EQ(file_prefix("C:\\odd \"name\".cpp"),
            "#include <perf/instrumented.hpp> // perf-instrument\n#line 1 \"C:\\\\odd \\\"name\\\".cpp\"\n");
}

TEST(InstrumentationText, ScopeStatementsEscapeTheLabel) {
  EXPECT_EQ(scope_statement("ns::f", scope_kind::plain), " PERF_INSTRUMENT(\"ns::f\");");
  EXPECT_EQ(scope_statement("say \"hi\"", scope_kind::constexpr_function),
            " PERF_INSTRUMENT_CONSTEXPR(\"say \\\"hi\\\"\");");
}

TEST(InstrumentationText, RecognisesItsOwnInsertions) {
  EXPECT_TRUE(starts_with_scope_statement(" PERF_INSTRUMENT(\"f\"); return 1; }"));
  EXPECT_TRUE(starts_with_scope_statement(" PERF_INSTRUMENT_CONSTEXPR(\"f\"); }"));
  EXPECT_FALSE(starts_with_scope_statement(" PERF_MEASURE(\"f\"); }"));
  EXPECT_FALSE(starts_with_scope_statement("PERF_INSTRUMENT(\"f\"); }"));
  EXPECT_TRUE(has_file_prefix(file_prefix("a.cpp") + "int x;\n"));
  EXPECT_FALSE(has_file_prefix("#include <perf/perf.hpp>\n"));
}

TEST(InstrumentationText, RemovalRestoresTheOriginalExactly) {
  const std::string original =
      "int f() { return 1; }\n"
      "int g() {\n  PERF_MEASURE(\"hand-written stays\");\n}\n"
      "auto l = [] { return \"{ PERF_INSTRUMENT\"; };\n";
  const std::string instrumented = file_prefix("/src/a.cpp") +
                                   "int f() {" + scope_statement("f", scope_kind::plain) + " return 1; }\n"
                                   "int g() {" + scope_statement("a \"quoted\" \\ label", scope_kind::constexpr_function) +
                                   "\n  PERF_MEASURE(\"hand-written stays\");\n}\n"
                                   "auto l = [] { return \"{ PERF_INSTRUMENT\"; };\n";
  EXPECT_EQ(remove_instrumentation(instrumented), original);
  EXPECT_EQ(remove_instrumentation(original), original);
}

}  // namespace
}  // namespace perf::tool
