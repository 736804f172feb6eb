// The lists that components add to at start-up: thread hooks, snapshot parts, exit
// outputs, report sections, metric families.
#ifndef PERF_RUNTIME_CORE_REGISTRATIONS_HPP
#define PERF_RUNTIME_CORE_REGISTRATIONS_HPP

#include <algorithm>
#include <vector>

namespace perf::runtime {

// The one list of `Registration`s (so each kind of registration is a type of its
// own). Written only by PERF_RUNTIME_ON_START functions, so later readers need no
// lock; never destroyed, since the exit outputs read it after static destructors.
template <class Registration>
std::vector<Registration>& registered() {
  static auto* const list = new std::vector<Registration>;
  return *list;
}

// Adds `entry` to registered<Registration>() after every entry of a lower or equal
// `order`: for the lists read in an order of their own (report sections, metric
// families), whatever order the components register in.
template <class Registration>
void register_in_order(const Registration& entry) {
  std::vector<Registration>& all = registered<Registration>();
  all.insert(std::upper_bound(all.begin(), all.end(), entry,
                              [](const Registration& a, const Registration& b) { return a.order < b.order; }),
             entry);
}

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_REGISTRATIONS_HPP
