#include "compare/round_order.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace perf::compare_impl {
namespace {

TEST(CompareRoundOrder, WilliamsDesignForFourIsTheTextbookSquare) {
  const std::vector<std::vector<std::size_t>> expected = {{0, 1, 3, 2}, {1, 2, 0, 3}, {2, 3, 1, 0}, {3, 0, 2, 1}};
  EXPECT_EQ(williams_design(4), expected);
}

TEST(CompareRoundOrder, WilliamsDesignIsLatinAndBalancedForCarryOver) {
  for (std::size_t count = 2; count <= 9; ++count) {
    SCOPED_TRACE(count);
    const auto rows = williams_design(count);
    ASSERT_EQ(rows.size(), count % 2 == 0 ? count : 2 * count);
    std::map<std::pair<std::size_t, std::size_t>, int> at_position, followed_by;
    for (const auto& row : rows) {
      ASSERT_EQ(row.size(), count);
      ASSERT_TRUE(std::is_permutation(row.begin(), row.end(), williams_design(count)[0].begin()));
      for (std::size_t position = 0; position < count; ++position) ++at_position[{row[position], position}];
      for (std::size_t position = 1; position < count; ++position) ++followed_by[{row[position - 1], row[position]}];
    }
    const int per_cycle = count % 2 == 0 ? 1 : 2;
    EXPECT_EQ(at_position.size(), count * count);
    for (const auto& [key, times] : at_position) EXPECT_EQ(times, per_cycle);
    EXPECT_EQ(followed_by.size(), count * (count - 1));
    for (const auto& [pair, times] : followed_by) EXPECT_EQ(times, per_cycle) << pair.first << " then " << pair.second;
  }
}

TEST(CompareRoundOrder, WilliamsSequenceRepeatsTheDesign) {
  round_sequence sequence(3, round_order::williams, 1);
  EXPECT_EQ(sequence.cycle(), 6u);
  const auto design = williams_design(3);
  for (std::size_t round = 0; round < 13; ++round) EXPECT_EQ(sequence.next(), design[round % 6]);
}

TEST(CompareRoundOrder, RandomSequenceShufflesEveryRoundReproducibly) {
  round_sequence first(5, round_order::random, 42), second(5, round_order::random, 42);
  EXPECT_EQ(first.cycle(), 5u);
  std::set<std::vector<std::size_t>> seen;
  for (int round = 0; round < 50; ++round) {
    const std::vector<std::size_t> order = first.next();
    EXPECT_EQ(order, second.next());
    EXPECT_TRUE(std::is_permutation(order.begin(), order.end(), williams_design(5)[0].begin()));
    seen.insert(order);
  }
  EXPECT_GT(seen.size(), 20u);  // 50 draws from 120 orders: a fixed order would give 1
}

}  // namespace
}  // namespace perf::compare_impl
