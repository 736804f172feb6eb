// Weighted counts per key, mergeable across threads.
#pragma once

#include <map>
#include <vector>

#include <perf/perf.hpp>

namespace logs {

template <class Key>
class counter {
 public:
  void add(const Key& key, int weight) {
    PERF_MEASURE("logs::counter::add");
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
counter<Key> merge_range(const std::vector<counter<Key>>& parts, size_t first, size_t last) {
  PERF_MEASURE("logs::merge_range");
  if (last - first == 1) return parts[first];
  const size_t middle = first + (last - first) / 2;
  counter<Key> merged = merge_range(parts, first, middle);
  merged.merge(merge_range(parts, middle, last));
  return merged;
}

}  // namespace logs
