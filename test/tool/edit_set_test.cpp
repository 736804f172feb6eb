// Gathering the plans of many translation units into one edit per body, and
// applying the edits.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "lib/plan/edit_set.hpp"
#include "lib/plan/instrumentation_text.hpp"

namespace perf::tool {
namespace {

// What a unit plans for `name`, measured, whose body's '{' ends at `offset` of `file`.
planned_function measured(const std::string& file, unsigned offset, const std::string& name,
                          scope_kind kind = scope_kind::plain, const std::string& existing = "",
                          const std::string& unit = "") {
  return {file, 1, 1, name, "", file, offset, existing, scope_statement(name, kind, tick_events::logged), unit};
}

planned_function skipped(const std::string& file, unsigned offset, const std::string& name, const std::string& reason,
                         const std::string& existing = "") {
  return {file, 1, 1, name, reason, file, offset, existing, "", ""};
}

TEST(EditSet, AFunctionMarkedInAnyUnitIsMarked) {
  edit_set edits;
  planned_function by_filter = skipped("/src/h.hpp", 10, "f", "constexpr before C++20: why");
  by_filter.unit = "/src/a.cpp";
  planned_function by_hand = by_filter;
  by_hand.unit = "/src/b.cpp";
  by_hand.marked = true;
  edits.add(by_filter);
  edits.add(by_hand);
  edits.add(skipped("/src/h.hpp", 30, "g", "constexpr before C++20: why"));
  const resolved_edits resolved = edits.resolve();
  ASSERT_EQ(resolved.functions.size(), 2u);
  EXPECT_EQ(resolved.functions.begin()->name, "f");
  EXPECT_TRUE(resolved.functions.begin()->marked);
  EXPECT_FALSE(std::next(resolved.functions.begin())->marked);
}

TEST(EditSet, TheSamePlanFromManyUnitsIsOneEdit) {
  edit_set edits;
  std::vector<std::thread> units;
  for (int unit = 0; unit < 8; ++unit)
    units.emplace_back([&] {
      edits.add(measured("/src/shared.hpp", 40, "f"));
      edits.add(measured("/src/shared.hpp", 10, "g"));
    });
  for (std::thread& unit : units) unit.join();
  const resolved_edits resolved = edits.resolve();
  ASSERT_EQ(resolved.files.size(), 1u);
  const file_edits& file = resolved.files.at("/src/shared.hpp");
  EXPECT_TRUE(file.prefix);
  const std::map<unsigned, replacement> expected = {{10, {0, " PERF_INSTRUMENT(\"g\");"}},
                                                    {40, {0, " PERF_INSTRUMENT(\"f\");"}}};
  EXPECT_EQ(file.replacements, expected);
  EXPECT_EQ(resolved.functions.size(), 2u);
}

TEST(EditSet, UnitsThatDisagreeLeaveTheFunctionUnmeasured) {
  edit_set edits;
  // A constexpr function in a header that a C++20 and a C++17 unit include.
  edits.add(measured("/src/h.hpp", 30, "square", scope_kind::constexpr_function));
  edits.add(skipped("/src/h.hpp", 30, "square", "constexpr before C++20"));
  const resolved_edits resolved = edits.resolve();
  EXPECT_TRUE(resolved.files.at("/src/h.hpp").replacements.empty());
  ASSERT_EQ(resolved.functions.size(), 1u);
  EXPECT_EQ(resolved.functions.begin()->skip_reason, "in some of its translation units: constexpr before C++20");
}

TEST(EditSet, UnitsThatWantDifferentKindsOfStatementLeaveTheFunctionUnmeasured) {
  edit_set edits;
  edits.add(measured("/src/h.hpp", 30, "f", scope_kind::plain, "", "/src/a.cpp"));
  edits.add(measured("/src/h.hpp", 30, "f", scope_kind::constexpr_function, "", "/src/b.cpp"));
  const resolved_edits resolved = edits.resolve();
  EXPECT_TRUE(resolved.files.at("/src/h.hpp").replacements.empty());
  EXPECT_EQ(resolved.functions.begin()->skip_reason,
            "its translation units want different scope statements: /src/a.cpp wants PERF_INSTRUMENT(\"...\"), "
            "/src/b.cpp wants PERF_INSTRUMENT_CONSTEXPR(\"...\")");
}

// A unit that renames the library's namespace with a macro before including its
// source: its label differs, but any label compiles, so the others' is written.
TEST(EditSet, UnitsThatOnlyNameAFunctionOtherwiseGetTheLabelMostUnitsWant) {
  edit_set edits;
  edits.add(measured("/src/lib.cpp", 30, "pugi::load", scope_kind::plain, "", "/src/lib.cpp"));
  edits.add(measured("/src/lib.cpp", 30, "pugih::load", scope_kind::plain, "", "/tests/header_only.cpp"));
  edits.add(measured("/src/lib.cpp", 30, "pugi::load", scope_kind::plain, "", "/tests/load.cpp"));
  const resolved_edits resolved = edits.resolve();
  const std::map<unsigned, replacement> expected = {{30, {0, " PERF_INSTRUMENT(\"pugi::load\");"}}};
  EXPECT_EQ(resolved.files.at("/src/lib.cpp").replacements, expected);
  ASSERT_EQ(resolved.functions.size(), 1u);
  EXPECT_EQ(resolved.functions.begin()->name, "pugi::load");
  EXPECT_EQ(resolved.functions.begin()->skip_reason, "");
  EXPECT_EQ(resolved.functions.begin()->renamed_by, "/tests/header_only.cpp names it pugih::load");
}

TEST(EditSet, AnEarlierRunsStatementIsKeptReplacedOrRemoved) {
  const std::string old_f = scope_statement("f", scope_kind::plain, tick_events::logged);
  edit_set edits;
  edits.add(measured("/src/a.cpp", 10, "f", scope_kind::plain, old_f));          // the same: kept
  edits.add(measured("/src/a.cpp", 50, "new label", scope_kind::plain, old_f));  // relabelled: replaced
  edits.add(skipped("/src/a.cpp", 90, "g", "a reason", old_f));                  // now skipped: removed
  const std::map<unsigned, replacement> expected = {
      {50, {static_cast<unsigned>(old_f.size()), " PERF_INSTRUMENT(\"new label\");"}},
      {90, {static_cast<unsigned>(old_f.size()), ""}}};
  EXPECT_EQ(edits.resolve().files.at("/src/a.cpp").replacements, expected);
}

TEST(EditSet, AFileSpellingTheAttributeGetsThePrefixAlone) {
  edit_set edits;
  edits.needs_prefix("/src/declarations.hpp");
  const resolved_edits resolved = edits.resolve();
  const file_edits& file = resolved.files.at("/src/declarations.hpp");
  EXPECT_TRUE(file.prefix);
  EXPECT_TRUE(file.replacements.empty());
}

TEST(EditSet, FunctionsWithoutABodyAreListedOnceInFileOrder) {
  edit_set edits;
  edits.add({"/src/b.cpp", 3, 1, "b", "deleted", "", 0, "", "", ""});
  edits.add({"/src/a.cpp", 9, 5, "a", "defaulted", "", 0, "", "", ""});
  edits.add({"/src/b.cpp", 3, 1, "b", "deleted", "", 0, "", "", ""});
  const std::set<selected_function> expected = {{"/src/a.cpp", 9, 5, "a", "defaulted", ""},
                                                {"/src/b.cpp", 3, 1, "b", "deleted", ""}};
  EXPECT_EQ(edits.resolve().functions, expected);
}

TEST(ApplyEdits, PutsThePrefixFirstAndReplacesAtOffsets) {
  file_edits edits{true, {{9, {0, " A"}}, {20, {3, "B"}}}};
  EXPECT_EQ(apply_edits("int f() {}\nint g() {xyz}\n", "/src/a.cpp", edits, destination::renamed_copy),
            file_prefix("/src/a.cpp") + "int f() { A}\nint g() {B}\n");
}

TEST(ApplyEdits, KeepsAByteOrderMarkFirstAndAPrefixOnce) {
  const std::string bom = "\xEF\xBB\xBF";
  const file_edits prefix_only{true, {}};
  const std::string once = apply_edits(bom + "int x;\n", "/a.cpp", prefix_only, destination::renamed_copy);
  EXPECT_EQ(once, bom + file_prefix("/a.cpp") + "int x;\n");
  EXPECT_EQ(apply_edits(once, "/a.cpp", prefix_only, destination::renamed_copy), once);
  EXPECT_EQ(remove_instrumentation(once), bom + "int x;\n");
}

TEST(ApplyEdits, InPlaceTheHeaderTakesAnEmptyLeadingLineAndNoLineMoves) {
  const std::string original = "#include <vector>\n\nint f() {}\n";
  const file_edits edits{true, {{28, {0, " A"}}}};
  const std::string once = apply_edits(original, "/src/a.cpp", edits, destination::same_file);
  EXPECT_EQ(once, "#include <vector>\n#include <perf/instrumented.hpp> // perf-instrument\nint f() { A}\n");
  EXPECT_EQ(apply_edits(once, "/src/a.cpp", file_edits{true, {}}, destination::same_file), once);
  EXPECT_EQ(remove_instrumentation(once), "#include <vector>\n\nint f() { A}\n");
  // A copy under another name names the original: the prefix, whatever the empty lines.
  EXPECT_EQ(apply_edits(original, "/src/a.cpp", edits, destination::renamed_copy),
            file_prefix("/src/a.cpp") + "#include <vector>\n\nint f() { A}\n");
  // No empty line among the leading ones: the prefix.
  EXPECT_EQ(apply_edits("int f() {}\n\n", "/src/a.cpp", file_edits{true, {}}, destination::same_file),
            file_prefix("/src/a.cpp") + "int f() {}\n\n");
}

}  // namespace
}  // namespace perf::tool
