// The share of the server thread's time that the pages reading every thread's
// figures (/metrics, /report, the heap profiles) may take while other clients wait:
// a burst of up to half a second of such pages is served whole (it lasts a second of
// nothing but pages), and beyond it half of the thread's time, the time spent
// earning back twice over. So however many
// scrapers loop, the thread spends the other half accepting connections and
// answering the cheap pages: a fresh client is served within a second under 1,000
// of them. A page asked for while the budget is spent and others wait is refused
// (503); a client alone is never refused. Used by the server thread only.
#ifndef PERF_RUNTIME_EXPORT_PAGE_BUDGET_HPP
#define PERF_RUNTIME_EXPORT_PAGE_BUDGET_HPP

#include <algorithm>
#include <chrono>

namespace perf::runtime {

class page_budget {
 public:
  using clock = std::chrono::steady_clock;
  static constexpr clock::duration burst = std::chrono::milliseconds(500);

  // Whether a page may be built now.
  bool admits(clock::time_point now) {
    earn(now);
    return left_ > clock::duration::zero();
  }

  // A page's work from `start` to `end` (its snapshot, or a piece of its text as it
  // is sent).
  void spent(clock::time_point start, clock::time_point end) {
    earn(end);
    left_ -= end - start;
  }

 private:
  void earn(clock::time_point now) {
    if (now > last_) left_ = std::min(burst, left_ + (now - last_) / 2);
    last_ = std::max(last_, now);
  }

  clock::duration left_ = burst;
  clock::time_point last_ = clock::now();
};

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_EXPORT_PAGE_BUDGET_HPP
