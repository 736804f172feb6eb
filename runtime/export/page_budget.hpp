// The share of the server thread's time that the pages reading every thread's
// figures (/metrics, /report, the heap profiles) may take while other clients wait:
// half. After such a page took d, another asked for while others wait is refused for
// the next d, so that however many scrapers loop, the thread spends the other half
// accepting connections and answering the cheap pages: a fresh client is served
// within a second under 1,000 of them. A client alone is never refused. Used by the
// server thread only.
#ifndef PERF_RUNTIME_EXPORT_PAGE_BUDGET_HPP
#define PERF_RUNTIME_EXPORT_PAGE_BUDGET_HPP

#include <algorithm>
#include <chrono>

namespace perf::runtime {

class page_budget {
 public:
  using clock = std::chrono::steady_clock;

  // Whether a page may be built now.
  bool admits(clock::time_point now) const { return now >= next_; }

  // A page's work from `start` to `end` (its snapshot, or a piece of its text as it
  // is sent): the next page waits as long again.
  void spent(clock::time_point start, clock::time_point end) { next_ = std::max(next_, end) + (end - start); }

 private:
  clock::time_point next_{};
};

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_EXPORT_PAGE_BUDGET_HPP
