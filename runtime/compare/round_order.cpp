#include "compare/round_order.hpp"

#include <algorithm>
#include <numeric>

namespace perf::compare_impl {

std::vector<std::vector<std::size_t>> williams_design(std::size_t count) {
  // First row 0, 1, n-1, 2, n-2, ...; row r adds r to each, modulo n. For an odd n the
  // mirrored rows are added, which balances what the first half alone cannot.
  std::vector<std::size_t> first(count);
  for (std::size_t position = 0; position < count; ++position) {
    const std::size_t half = (position + 1) / 2;
    first[position] = position % 2 == 1 ? half : (count - half) % count;
  }
  std::vector<std::vector<std::size_t>> rows;
  for (std::size_t r = 0; r < count; ++r) {
    std::vector<std::size_t> row(count);
    std::transform(first.begin(), first.end(), row.begin(), [&](std::size_t t) { return (t + r) % count; });
    rows.push_back(row);
  }
  if (count % 2 == 1) {
    for (std::size_t r = 0; r < count; ++r) rows.emplace_back(rows[r].rbegin(), rows[r].rend());
  }
  return rows;
}

round_sequence::round_sequence(std::size_t count, round_order order, std::uint64_t seed)
    : order_(order), random_(seed) {
  if (order == round_order::williams) {
    design_ = williams_design(count);
    cycle_ = design_.size();
  } else {
    design_.emplace_back(count);
    std::iota(design_[0].begin(), design_[0].end(), std::size_t{0});
    cycle_ = count;
  }
}

const std::vector<std::size_t>& round_sequence::next() {
  const std::size_t round = round_++;
  if (order_ == round_order::williams) return design_[round % design_.size()];
  std::shuffle(design_[0].begin(), design_[0].end(), random_);
  return design_[0];
}

}  // namespace perf::compare_impl
