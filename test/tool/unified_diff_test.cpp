// The --diff output.
#include <gtest/gtest.h>

#include "lib/apply/unified_diff.hpp"

namespace perf::tool {
namespace {

TEST(UnifiedDiff, EqualTextsHaveNoDiff) { EXPECT_EQ(unified_diff("a.cpp", "x\ny\n", "x\ny\n"), ""); }

TEST(UnifiedDiff, LinesAddedAtTheTopAndAChangedLineShareAHunkWhenClose) {
  EXPECT_EQ(unified_diff("a.cpp", "1\n2\nf {\n4\n", "P\nQ\n1\n2\nf { S\n4\n"),
            "--- a.cpp\n+++ a.cpp\n"
            "@@ -1,4 +1,6 @@\n"
            "+P\n+Q\n 1\n 2\n-f {\n+f { S\n 4\n");
}

TEST(UnifiedDiff, DistantChangesGetHunksOfTheirOwnWithThreeLinesOfContext) {
  std::string before, after;
  for (int i = 1; i <= 20; ++i) {
    const std::string line = std::to_string(i) + "\n";
    before += line;
    after += (i == 2 || i == 18) ? std::to_string(i) + "+\n" : line;
  }
  EXPECT_EQ(unified_diff("b.cpp", before, after),
            "--- b.cpp\n+++ b.cpp\n"
            "@@ -1,5 +1,5 @@\n 1\n-2\n+2+\n 3\n 4\n 5\n"
            "@@ -15,6 +15,6 @@\n 15\n 16\n 17\n-18\n+18+\n 19\n 20\n");
}

TEST(UnifiedDiff, AMissingFinalNewlineIsMarked) {
  EXPECT_EQ(unified_diff("c.cpp", "f {}", "f { S}"),
            "--- c.cpp\n+++ c.cpp\n@@ -1,1 +1,1 @@\n-f {}\n\\ No newline at end of file\n+f { S}\n"
            "\\ No newline at end of file\n");
}

}  // namespace
}  // namespace perf::tool
