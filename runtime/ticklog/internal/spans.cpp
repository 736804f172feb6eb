#include "ticklog/internal/spans.hpp"

namespace perf::runtime {

std::vector<span_role> span_roles(const std::vector<event_copy>& events) {
  std::vector<span_role> roles(events.size());
  std::vector<size_t> open;  // enters not yet left, innermost last
  for (size_t i = 0; i < events.size(); ++i) {
    switch (events[i].kind) {
      case detail::event_kind::enter:
        roles[i].kind = span_role::open;
        open.push_back(i);
        break;
      case detail::event_kind::exit:
        if (open.empty()) {
          roles[i].kind = span_role::ends_cut;
        } else if (events[open.back()].site == events[i].site) {
          roles[open.back()] = {span_role::begins, i};
          roles[i] = {span_role::ends, open.back()};
          open.pop_back();
        }
        break;
      case detail::event_kind::tick: roles[i].kind = span_role::tick; break;
      case detail::event_kind::none: break;
    }
  }
  return roles;
}

}  // namespace perf::runtime
