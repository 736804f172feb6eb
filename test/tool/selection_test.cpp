// Which functions are chosen, and under which label.
#include <gtest/gtest.h>

#include "lib/collect/selection.hpp"

namespace perf::tool {
namespace {

TEST(Selection, TheAttributeSelectsWithItsLabelOrTheDefaultName) {
  const selection chosen;
  EXPECT_EQ(chosen.choose("ns::f", "ns::f", std::string()), std::string());
  EXPECT_EQ(chosen.choose("ns::f", "ns::f", std::string("hot path")), std::string("hot path"));
  EXPECT_EQ(chosen.choose("ns::f", "ns::f", std::nullopt), std::nullopt);
}

TEST(Selection, FiltersMatchAWholeName) {
  selection chosen;
  ASSERT_EQ(llvm::toString(chosen.add_filter("app::.*")), "");
  EXPECT_TRUE(chosen.has_filters());
  EXPECT_EQ(chosen.choose("app::run", "app::run", std::nullopt), std::string());
  EXPECT_EQ(chosen.choose("myapp::run", "myapp::run", std::nullopt), std::nullopt);
  EXPECT_EQ(chosen.choose("app", "app", std::nullopt), std::nullopt);
}

TEST(Selection, FiltersMatchTheReportNameOrThePlainQualifiedName) {
  selection chosen;
  ASSERT_EQ(llvm::toString(chosen.add_filter("box<T>::get")), "");
  ASSERT_EQ(llvm::toString(chosen.add_filter("larger")), "");
  EXPECT_EQ(chosen.choose("box<T>::get", "box::get", std::nullopt), std::string());
  EXPECT_EQ(chosen.choose("larger<T>", "larger", std::nullopt), std::string());
  EXPECT_EQ(chosen.choose("box<T>::set", "box::set", std::nullopt), std::nullopt);
}

TEST(Selection, ExcludesWinOverFiltersAndAttributes) {
  selection chosen;
  ASSERT_EQ(llvm::toString(chosen.add_filter(".*")), "");
  ASSERT_EQ(llvm::toString(chosen.add_exclude("detail::.*|main")), "");
  EXPECT_EQ(chosen.choose("detail::helper", "detail::helper", std::string("label")), std::nullopt);
  EXPECT_EQ(chosen.choose("main", "main", std::nullopt), std::nullopt);
  EXPECT_EQ(chosen.choose("app::run", "app::run", std::nullopt), std::string());
}

TEST(Selection, TimeAllMatchesEitherNameAndNeverSelects) {
  selection chosen;
  EXPECT_FALSE(chosen.times_every_call("box<T>::get", "box::get"));
  ASSERT_EQ(llvm::toString(chosen.add_time_all("box::get")), "");
  EXPECT_TRUE(chosen.times_every_call("box<T>::get", "box::get"));
  EXPECT_FALSE(chosen.times_every_call("box<T>::set", "box::set"));
  EXPECT_FALSE(chosen.times_every_call("box<T>::get_all", "box::get_all"));  // a whole name
  EXPECT_FALSE(chosen.has_filters());
  EXPECT_EQ(chosen.choose("box<T>::get", "box::get", std::nullopt), std::nullopt);
  EXPECT_EQ(llvm::toString(chosen.add_time_all("a(")).substr(0, 30), "invalid regular expression 'a(");
}

TEST(Selection, ABadExpressionIsNamed) {
  selection chosen;
  EXPECT_EQ(llvm::toString(chosen.add_filter("a(")).substr(0, 30), "invalid regular expression 'a(");
  EXPECT_FALSE(chosen.has_filters());
}

}  // namespace
}  // namespace perf::tool
