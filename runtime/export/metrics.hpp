// A snapshot in the Prometheus text exposition format 0.0.4 or in OpenMetrics 1.0:
// what /metrics serves (docs/live.md lists the metrics).
#ifndef PERF_RUNTIME_EXPORT_METRICS_HPP
#define PERF_RUNTIME_EXPORT_METRICS_HPP

#include <stddef.h>
#include <stdint.h>

#include <array>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "perf/report.hpp"
#include "report_format/function_columns.hpp"

namespace perf::runtime {

enum class metrics_format { prometheus, openmetrics };

// OpenMetrics when `accept` (a request's Accept header) names it, else Prometheus.
metrics_format metrics_format_for(std::string_view accept);

// The Content-Type of `format`.
const char* metrics_content_type(metrics_format format);

// Readable bytes that follow every function's label text (metrics_function::labels):
// the page copies labels in blocks.
constexpr size_t label_padding = 16;

// `function="...",file="...",line="..."` as the page writes it: escaped (backslash,
// double quote, line feed; bytes that are not UTF-8 become U+FFFD).
std::string function_label_text(std::string_view name, std::string_view file, unsigned line);

// A measured function's name and location.
struct function_location {
  std::string_view name;
  std::string_view file;
  unsigned line = 0;
};

// Whether `a`'s series come before `b`'s on the page: by name, then file, then line
// (an order that stays from page to page).
inline bool before_on_page(const function_location& a, const function_location& b) {
  return std::tie(a.name, a.file, a.line) < std::tie(b.name, b.file, b.line);
}

// One measured function's series: its row's columns that have a /metrics family
// (report_format::function_columns), and for the duration histogram its timed calls,
// their mean (timed_mean_ns) and the latency buckets.
struct metrics_function {
  std::string_view labels;  // function_label_text(), followed by label_padding readable bytes
  function_stats row;       // its name, file and vectors unread: the labels name the function
  // [i]: timed calls that took at most latency_bucket_bounds_seconds[i] (cumulative).
  std::array<uint64_t, std::size(latency_bucket_bounds_seconds)> latency{};
};

// What a page shows: the functions, in the page's order (before_on_page), and
// the rest from a snapshot (its `functions` are not read): threads, allocations,
// tick log, the sampler's counts.
struct metrics_content {
  std::vector<metrics_function> functions;
  snapshot counts;
};

// The page of one snapshot, written piece by piece into the caller's buffer: the
// server sends each piece as it comes, so a page of tens of megabytes (10,000
// functions) is never held whole. One thread at a time. Exited threads have no
// series of their own: their rows are folded into one per thread name, labelled
// tid="exited", so that the series stay few however many threads come and go, and
// each is a counter that only grows.
class metrics_page {
 public:
  // The page of `taken`, its functions' labels escaped here.
  metrics_page(const snapshot& taken, metrics_format format);
  // The page of `content`, whose label text outlives the page.
  metrics_page(metrics_content content, metrics_format format);
  // Its functions' labels may point into the page itself.
  metrics_page(const metrics_page&) = delete;
  metrics_page& operator=(const metrics_page&) = delete;

  // Writes the page's next bytes, at most `room` of them, to `out`; returns how many.
  // Returns 0 only once the whole page has been read (so any `room` of at least 1
  // makes progress). Whole lines go out while they fit; a piece of the page larger
  // than `room` goes out over several calls.
  size_t read(char* out, size_t room);

 private:
  enum class label_set { functions, threads, allocation_threads, none };
  struct family {
    std::string_view name;  // its samples' name (a counter's ends in _total)
    std::string_view type;
    std::string_view help;
    label_set labels;
    // The sample of `row`: a column of the function's (report_format::function_columns;
    // the latency histogram when its metric is), or a count a component's family
    // (core/metric_families.hpp) reads from the snapshot.
    const report_format::function_column* column = nullptr;
    uint64_t (*snapshot_count)(const snapshot&, size_t row) = nullptr;

    bool histogram() const { return column != nullptr && column->metric == report_format::metric_kind::histogram; }
  };

  size_t rows(const family& f) const;
  std::string_view labels(label_set set, size_t row) const;
  size_t next_bound() const;  // the most bytes the next piece can take
  char* write_next(char* out) const;
  void advance();
  char* write_row(const family& f, size_t row, char* out) const;

  metrics_content c_;
  std::string function_labels_;  // what c_'s labels point into, when the page owns them
  bool openmetrics_;
  std::vector<family> families_;
  // The page's rows of a snapshot's threads or allocation threads (label_set
  // threads, allocation_threads): one per running thread, one per name for the
  // exited ones.
  struct thread_rows {
    // The rows' label text, escaped once per page: row i's is [label_ends[i-1],
    // label_ends[i]), followed by padding for copies in blocks.
    std::string label_text;
    std::vector<size_t> label_ends;
    // The snapshot's rows folded into row i: sources[source_ends[i-1], source_ends[i]).
    std::vector<size_t> sources;
    std::vector<size_t> source_ends;
  };
  template <typename Row>
  void fold_thread_rows(label_set set, const std::vector<Row>& rows);
  uint64_t snapshot_sample(const family& f, size_t row) const;  // summed over a row's threads

  std::array<thread_rows, 2> thread_rows_;
  // Each bucket's line after the row's labels, up to its value: `,le="1e-07"} `; +Inf last.
  struct bucket_text {
    char text[32];
    size_t size;
  };
  std::array<bucket_text, std::size(latency_bucket_bounds_seconds) + 1> buckets_;
  // Where the page is: a family (families_.size(): the end), and in it the header
  // (row 0) or a row (row i + 1).
  size_t family_ = 0;
  size_t row_ = 0;
  bool done_ = false;
  // A piece larger than the caller's room, written whole here and handed out in parts.
  std::string staged_;
  size_t staged_at_ = 0;
};

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_EXPORT_METRICS_HPP
