// Weighted counts per key, mergeable across threads.
#pragma once

#include <map>
#include <vector>

namespace logs {

template <class Key>
class counter {
 public:
  [[perf::measure]] void add(const Key& key, int weight) {
    counts_[key] += weight;
  }
  void merge(const counter& other) {
    for (const auto& [key, weight] : other.counts_) counts_[key] += weight;
  }
  const std::map<Key, long>& counts() const { return counts_; }

 private:
  std::map<Key, long> counts_;
};

// Merges parts[first, last) pairwise, halving the work at each level.
template <class Key>
[[perf::measure]] counter<Key> merge_range(const std::vector<counter<Key>>& parts, size_t first, size_t last) {
  if (last - first == 1) return parts[first];
  const size_t middle = first + (last - first) / 2;
  counter<Key> merged = merge_range(parts, first, middle);
  merged.merge(merge_range(parts, middle, last));
  return merged;
}

}  // namespace logs
