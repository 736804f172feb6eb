// Gathering insertions from many translation units, and applying them.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "lib/edit_set.hpp"

namespace perf::tool {
namespace {

TEST(EditSet, TheSameInsertionFromManyUnitsIsKeptOnce) {
  edit_set edits;
  std::vector<std::thread> units;
  for (int unit = 0; unit < 8; ++unit)
    units.emplace_back([&] {
      edits.insert("/src/shared.hpp", 40, " S(\"f\");");
      edits.insert("/src/shared.hpp", 10, " S(\"g\");");
    });
  for (std::thread& unit : units) unit.join();
  const auto insertions = edits.insertions();
  ASSERT_EQ(insertions.size(), 1u);
  const std::map<unsigned, std::string> expected = {{10, " S(\"g\");"}, {40, " S(\"f\");"}};
  EXPECT_EQ(insertions.at("/src/shared.hpp"), expected);
}

TEST(EditSet, APrefixOnlyFileHasNoInsertions) {
  edit_set edits;
  edits.prefix("/src/attribute_only.hpp");
  EXPECT_TRUE(edits.insertions().at("/src/attribute_only.hpp").empty());
}

TEST(EditSet, SelectedFunctionsAreListedOnceInFileOrder) {
  edit_set edits;
  edits.select({"/src/b.cpp", 3, 1, "b", ""});
  edits.select({"/src/a.cpp", 9, 5, "a", "deleted: it has no body to measure"});
  edits.select({"/src/b.cpp", 3, 1, "b", ""});
  const std::set<selected_function> selected = edits.selected();
  ASSERT_EQ(selected.size(), 2u);
  EXPECT_EQ(selected.begin()->name, "a");
}

TEST(ApplyInsertions, InsertsAtOffsetsAfterThePrefix) {
  EXPECT_EQ(apply_insertions("int f() {}\nint g() {}\n", {{9, " A"}, {20, " B"}}, "P\n"),
            "P\nint f() { A}\nint g() { B}\n");
  EXPECT_EQ(apply_insertions("x", {}, ""), "x");
}

}  // namespace
}  // namespace perf::tool
