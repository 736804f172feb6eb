// Which functions are chosen, and under which label.
#include <gtest/gtest.h>

#include "lib/selection.hpp"

namespace perf::tool {
namespace {

TEST(Selection, TheAttributeSelectsWithItsLabelOrTheDefaultName) {
  const selection chosen;
  EXPECT_EQ(chosen.choose("ns::f", std::string()), std::string());
  EXPECT_EQ(chosen.choose("ns::f", std::string("hot path")), std::string("hot path"));
  EXPECT_EQ(chosen.choose("ns::f", std::nullopt), std::nullopt);
}

TEST(Selection, FiltersMatchWholeQualifiedNames) {
  selection chosen;
  ASSERT_EQ(chosen.add_filter("app::.*"), "");
  EXPECT_EQ(chosen.choose("app::run", std::nullopt), std::string());
  EXPECT_EQ(chosen.choose("myapp::run", std::nullopt), std::nullopt);
  EXPECT_EQ(chosen.choose("app", std::nullopt), std::nullopt);
}

TEST(Selection, ExcludesWinOverFiltersAndAttributes) {
  selection chosen;
  ASSERT_EQ(chosen.add_filter(".*"), "");
  ASSERT_EQ(chosen.add_exclude("detail::.*|main"), "");
  EXPECT_EQ(chosen.choose("detail::helper", std::string("label")), std::nullopt);
  EXPECT_EQ(chosen.choose("main", std::nullopt), std::nullopt);
  EXPECT_EQ(chosen.choose("app::run", std::nullopt), std::string());
}

TEST(Selection, ABadExpressionIsNamed) {
  selection chosen;
  EXPECT_EQ(chosen.add_filter("a(").substr(0, 30), "invalid regular expression 'a(");
}

}  // namespace
}  // namespace perf::tool
