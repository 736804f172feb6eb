// The lists that components add to at start-up: thread hooks, snapshot parts, exit
// outputs, report sections.
#ifndef PERF_RUNTIME_CORE_REGISTRATIONS_HPP
#define PERF_RUNTIME_CORE_REGISTRATIONS_HPP

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

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_REGISTRATIONS_HPP
