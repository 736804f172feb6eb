// A thread's events as the traces show them: each measured scope's enter paired with
// its exit, the scopes still open when the ring was read, the scopes entered before
// the ring's first event kept (whose enter was overwritten: shown from that first
// event on, so that no span loses an end), and the ticks. What both trace formats
// (internal/trace.hpp, internal/perfetto_trace.hpp) are made from.
#ifndef PERF_RUNTIME_TICKLOG_INTERNAL_SPANS_HPP
#define PERF_RUNTIME_TICKLOG_INTERNAL_SPANS_HPP

#include <cstddef>
#include <string>
#include <vector>

#include "ticklog/ticklog.hpp"

namespace perf::runtime {

// What one event of a thread's ring is in a trace.
struct span_role {
  enum kind_t : unsigned char {
    left_out,  // an exit that closes no scope the ring shows, or an event of no kind
    begins,    // an enter whose exit the ring holds: `partner` is its index
    open,      // an enter not left when the ring was read
    ends,      // the exit of the enter at `partner`
    ends_cut,  // the exit of a scope entered before the ring's first event (its start cut off)
    tick,
  } kind = left_out;
  size_t partner = 0;
};

// The role of each of `events` (one thread's, in the order logged), index for index.
// An exit pairs with the innermost open enter when their sites agree; an exit met
// while no enter is open closes a scope entered before the first event (the innermost
// first); an exit that matches neither is left out, so that spans always nest.
std::vector<span_role> span_roles(const std::vector<event_copy>& events);

// span_roles' rule for any storage, allocating nothing (the crash trace's signal
// handler uses it): calls set(i, kind, partner) with the role of each of `count` events
// whose kind and site are kind_of(i) and site_of(i); `open` (room for `capacity`
// indexes) ends holding the enters still open, innermost last, and their number is
// returned. An enter met while `capacity` are open is left out.
template <class KindOf, class SiteOf, class Set>
size_t pair_spans(size_t count, KindOf kind_of, SiteOf site_of, size_t* open, size_t capacity, Set set) {
  size_t depth = 0;
  for (size_t i = 0; i < count; ++i) {
    switch (kind_of(i)) {
      case detail::event_kind::enter:
        if (depth == capacity) {
          set(i, span_role::left_out, 0);
          break;
        }
        set(i, span_role::open, 0);
        open[depth++] = i;
        break;
      case detail::event_kind::exit:
        if (depth == 0) {
          set(i, span_role::ends_cut, 0);
        } else if (site_of(open[depth - 1]) == site_of(i)) {
          --depth;
          set(open[depth], span_role::begins, i);
          set(i, span_role::ends, open[depth]);
        } else {
          set(i, span_role::left_out, 0);
        }
        break;
      case detail::event_kind::tick: set(i, span_role::tick, 0); break;
      case detail::event_kind::none: set(i, span_role::left_out, 0); break;
    }
  }
  return depth;
}

// The clock value of the earliest event or sample `view` holds, which both traces
// count their times from (the largest value when it holds none).
uint64_t first_event_time(const tick_view& view);

// What a trace says at the first event kept of a thread whose ring overwrote
// `contents.dropped` older events: that its timeline starts late, how many were
// dropped and the PERF_RING_EVENTS that keeps them.
std::string late_start_note(const ring_contents& contents);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_TICKLOG_INTERNAL_SPANS_HPP
