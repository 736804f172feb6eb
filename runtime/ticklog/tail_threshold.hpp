// A PERF_CAPTURE rule relative to a function's own distribution (FUNCTION>pQ, e.g.
// handle>p99.9): which of its calls lie beyond the quantile Q of the calls before
// them. The writer thread (trace_stream.hpp) keeps one per site such a rule names;
// not thread-safe.
//
// The calls are counted in the log-linear buckets of perf/detail/histogram_index.hpp
// (3,776 counters: 30 KB a site). A call is beyond when it falls in a bucket above
// the one holding the quantile, so that of a steady distribution at most 1 - Q of
// the calls are (a bucket is 1/64 of its values wide), and only from calls_needed()
// calls on: 10 / (1 - Q), so that at least 10 calls lie beyond the quantile and one
// outlier moves it by one call of the tail, not to itself (p99.9: 10,000 calls;
// p99: 1,000). The quantile follows the distribution: it is found again each time
// the calls have grown by 1%.
#ifndef PERF_RUNTIME_TICKLOG_TAIL_THRESHOLD_HPP
#define PERF_RUNTIME_TICKLOG_TAIL_THRESHOLD_HPP

#include <cstdint>
#include <vector>

namespace perf::runtime {

class tail_threshold {
 public:
  // `quantile` in [0.5, 1).
  explicit tail_threshold(double quantile);

  // The calls to count before any is judged beyond the quantile.
  static uint64_t calls_needed(double quantile);

  // Counts a call that lasted `ticks`; returns whether it lies beyond the quantile
  // of the calls counted before it.
  bool add(uint64_t ticks);

 private:
  void find_quantile();

  const double quantile_;
  const uint64_t needed_;
  std::vector<uint64_t> counts_;  // index = histogram bucket
  uint64_t count_ = 0;
  unsigned highest_ = 0;  // the highest bucket counted in
  unsigned bucket_ = 0;   // the bucket holding the quantile, once count_ >= needed_
  uint64_t next_search_;  // count_ at which find_quantile() runs next
};

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_TICKLOG_TAIL_THRESHOLD_HPP
