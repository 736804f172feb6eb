// The inserted text, and taking it out again byte for byte.
#include <gtest/gtest.h>

#include "lib/plan/instrumentation_text.hpp"

namespace perf::tool {
namespace {

TEST(InstrumentationText, PrefixIncludesTheHeaderAndRestoresLineNumbers) {
  EXPECT_EQ(file_prefix("/src/a.cpp"), "#include <perf/instrumented.hpp> // perf-instrument\n#line 1 \"/src/a.cpp\"\n");
  EXPECT_EQ(file_prefix("C:\\odd \"name\".cpp"),
            "#include <perf/instrumented.hpp> // perf-instrument\n#line 1 \"C:\\\\odd \\\"name\\\".cpp\"\n");
}

TEST(InstrumentationText, TheHeaderTakesAnEmptyLineAmongTheLeadingCommentsAndDirectives) {
  EXPECT_EQ(empty_line_for_header("\nint x;\n"), 0u);
  EXPECT_EQ(empty_line_for_header("// license\n#include <a>\n\n#include <b>\n\nint x;\n"), 24u);
  EXPECT_EQ(empty_line_for_header("\xEF\xBB\xBF\nint x;\n"), 3u);  // after a byte order mark
  // After the first line of code nothing qualifies: the header would come after a use.
  EXPECT_EQ(empty_line_for_header("int x;\n\nint y;\n"), std::nullopt);
  // Lines that only look empty: inside a comment, continuing a directive or a comment.
  EXPECT_EQ(empty_line_for_header("/* a\n\n*/\nint x;\n"), std::nullopt);
  EXPECT_EQ(empty_line_for_header("/* a */ /* b\n\n*/\n\nint x;\n"), 17u);
  EXPECT_EQ(empty_line_for_header("#define A 1 \\\n\nint x;\n"), std::nullopt);
  EXPECT_EQ(empty_line_for_header("// a \\\n\nint x;\n"), std::nullopt);
  EXPECT_EQ(empty_line_for_header("#include \"/*\"\n\nint x;\n"), 14u);  // no comment opens in a literal
  EXPECT_EQ(empty_line_for_header(" \nint x;\n"), std::nullopt);         // spaces are not empty
  EXPECT_EQ(empty_line_for_header("\r\nint x;\r\n"), std::nullopt);
  EXPECT_EQ(empty_line_for_header("int x;"), std::nullopt);
}

TEST(InstrumentationText, AConditionalHoldsTheHeaderOnlyWhenItIsTheIncludeGuardOfTheWholeFile) {
  EXPECT_EQ(empty_line_for_header("#ifdef A\n\n#endif\nint x;\n"), std::nullopt);
  EXPECT_EQ(empty_line_for_header("#ifdef A\n#endif\n\nint x;\n"), 16u);
  const std::string guarded = "#ifndef A_H\n#define A_H\n\nint x;\n#endif  // A_H\n";
  EXPECT_EQ(empty_line_for_header(guarded), 24u);
  EXPECT_EQ(empty_line_for_header(guarded + "// after it\n"), 24u);
  EXPECT_EQ(empty_line_for_header(guarded + "int y;\n"), std::nullopt);  // code outside the guard
  EXPECT_EQ(empty_line_for_header(guarded + "#define B\n"), std::nullopt);
  EXPECT_EQ(empty_line_for_header("#ifndef A_H\n#define A_H\n\nint x;\n#else\nint y;\n#endif\n"), std::nullopt);
  EXPECT_EQ(empty_line_for_header("#ifndef A_H\n#define B_H\n\nint x;\n#endif\n"), std::nullopt);
  EXPECT_EQ(empty_line_for_header("#ifndef A_H\n#define A_H\n\nint x;\n"), std::nullopt);  // never closed
  EXPECT_EQ(empty_line_for_header("#ifndef A_H\n#define A_H\n#if B\n\n#endif\nint x;\n#endif\n"), std::nullopt);
}

TEST(InstrumentationText, RecognisesTheHeaderInEitherPlace) {
  EXPECT_TRUE(has_runtime_header(file_prefix("a.cpp") + "int x;\n"));
  EXPECT_TRUE(has_runtime_header("#include <perf/instrumented.hpp> // perf-instrument\nint x;\n"));
  EXPECT_TRUE(has_runtime_header("#include <a>\n#include <perf/instrumented.hpp> // perf-instrument\nint x;\n"));
  EXPECT_FALSE(has_runtime_header("#include <perf/perf.hpp>\nint x;\n"));
  EXPECT_FALSE(has_runtime_header("// #include <perf/instrumented.hpp> // perf-instrument\n"));
  EXPECT_FALSE(has_runtime_header(std::string(header_search_bytes, '\n') +
                                  "#include <perf/instrumented.hpp> // perf-instrument\n"));
}

TEST(InstrumentationText, LabelsStayOnOneLineAndMeanWhatTheySay) {
  EXPECT_EQ(string_literal_body("a\nb\tc\r\x01"
                                "1"),
            "a\\nb\\tc\\015\\0011");
  EXPECT_EQ(string_literal_body("what?"
                                "?!"),
            "what?\\?!");  // no trigraph
  EXPECT_EQ(string_literal_body("caf\xC3\xA9"), "caf\xC3\xA9");
}

TEST(InstrumentationText, ScopeStatementsEscapeTheLabel) {
  EXPECT_EQ(scope_statement("ns::f", scope_kind::plain, tick_events::logged), " PERF_INSTRUMENT(\"ns::f\");");
  EXPECT_EQ(scope_statement("say \"hi\"", scope_kind::constexpr_function, tick_events::logged),
            " PERF_INSTRUMENT_CONSTEXPR(\"say \\\"hi\\\"\");");
}

TEST(InstrumentationText, ScopesOutOfTheTickLogHaveAMacroOfTheirOwn) {
  EXPECT_EQ(scope_statement("f", scope_kind::plain, tick_events::off), " PERF_INSTRUMENT_NO_TICKS(\"f\");");
  EXPECT_EQ(scope_statement("f", scope_kind::constexpr_function, tick_events::off),
            " PERF_INSTRUMENT_CONSTEXPR_NO_TICKS(\"f\");");
}

TEST(InstrumentationText, ScopesTimingEveryCallEndInTimeAll) {
  EXPECT_EQ(scope_statement("f", scope_kind::plain, tick_events::logged, call_timing::every_call),
            " PERF_INSTRUMENT_TIME_ALL(\"f\");");
  EXPECT_EQ(scope_statement("f", scope_kind::plain, tick_events::off, call_timing::every_call),
            " PERF_INSTRUMENT_NO_TICKS_TIME_ALL(\"f\");");
  EXPECT_EQ(scope_statement("f", scope_kind::constexpr_function, tick_events::logged, call_timing::every_call),
            " PERF_INSTRUMENT_CONSTEXPR_TIME_ALL(\"f\");");
  EXPECT_EQ(scope_statement("f", scope_kind::constexpr_function, tick_events::off, call_timing::every_call),
            " PERF_INSTRUMENT_CONSTEXPR_NO_TICKS_TIME_ALL(\"f\");");
  EXPECT_EQ(scope_statement("f", scope_kind::plain, tick_events::logged, call_timing::runtime_chooses),
            " PERF_INSTRUMENT(\"f\");");
}

TEST(InstrumentationText, RecognisesItsOwnInsertions) {
  EXPECT_EQ(scope_statement_length(" PERF_INSTRUMENT(\"f\"); return 1; }"), 22u);
  EXPECT_EQ(scope_statement_length(" PERF_INSTRUMENT_CONSTEXPR(\"a\\\"b\"); }"), 35u);
  EXPECT_EQ(scope_statement_length(" PERF_INSTRUMENT_NO_TICKS(\"f\"); }"), 31u);
  EXPECT_EQ(scope_statement_length(" PERF_INSTRUMENT_CONSTEXPR_NO_TICKS(\"f\"); }"), 41u);
  EXPECT_EQ(scope_statement_length(" PERF_INSTRUMENT_TIME_ALL(\"f\"); }"), 31u);
  EXPECT_EQ(scope_statement_length(" PERF_INSTRUMENT_CONSTEXPR_NO_TICKS_TIME_ALL(\"f\"); }"), 50u);
  EXPECT_EQ(scope_statement_length(" PERF_MEASURE_TIME_ALL(\"f\"); }"), 0u);
  EXPECT_EQ(scope_statement_length(" PERF_MEASURE(\"f\"); }"), 0u);
  EXPECT_EQ(scope_statement_length("PERF_INSTRUMENT(\"f\"); }"), 0u);
  EXPECT_EQ(scope_statement_length(" PERF_INSTRUMENT(\"f\n\"); }"), 0u);
  EXPECT_EQ(file_prefix_length(file_prefix("a.cpp") + "int x;\n"), file_prefix("a.cpp").size());
  EXPECT_EQ(file_prefix_length("#include <perf/perf.hpp>\n"), 0u);
  EXPECT_EQ(file_prefix_length("#include <perf/instrumented.hpp> // perf-instrument\nint x;\n"), 0u);
}

TEST(InstrumentationText, RemovalRestoresTheOriginalExactly) {
  const std::string original =
      "int f() { return 1; }\n"
      "int g() {\n  PERF_MEASURE(\"hand-written stays\");\n}\n"
      "int h() { return 3; }\n"
      "auto l = [] { return \"{ PERF_INSTRUMENT\"; };\n";
  const std::string instrumented =
      file_prefix("/src/a.cpp") + "int f() {" + scope_statement("f", scope_kind::plain, tick_events::off) +
      " return 1; }\n"
      "int g() {" +
      scope_statement("a \"quoted\" \\ label", scope_kind::constexpr_function, tick_events::logged) +
      "\n  PERF_MEASURE(\"hand-written stays\");\n}\n"
      "int h() {" +
      scope_statement("h", scope_kind::constexpr_function, tick_events::off, call_timing::every_call) +
      " return 3; }\n"
      "auto l = [] { return \"{ PERF_INSTRUMENT\"; };\n";
  EXPECT_EQ(remove_instrumentation(instrumented), original);
  EXPECT_EQ(remove_instrumentation(original), original);
}

}  // namespace
}  // namespace perf::tool
