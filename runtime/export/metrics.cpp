#include "export/metrics.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <map>

#include "core/metric_families.hpp"
#include "report_format/escaping.hpp"

namespace perf::runtime {
namespace {

void append_label(std::string& out, size_t row_start, std::string_view name, std::string_view value) {
  if (out.size() != row_start) out += ',';
  out += name;
  out += "=\"";
  report_format::append_label_value(out, value);
  out += '"';
}

char* put(char* out, std::string_view text) {
  std::memcpy(out, text.data(), text.size());
  return out + text.size();
}

char* put_count(char* out, uint64_t value) { return std::to_chars(out, out + 20, value).ptr; }

// Nanoseconds as seconds, to the nanosecond ("0.000012345", "2"): two integers, where
// the shortest round-trip form of the double would cost several times as much. The
// clock counts no finer than a nanosecond.
char* put_seconds(char* out, double ns) {
  if (!(ns >= 0 && ns < 9e18)) return std::to_chars(out, out + 32, ns * 1e-9).ptr;
  const uint64_t whole_ns = static_cast<uint64_t>(ns + 0.5);
  out = put_count(out, whole_ns / 1000000000);
  const uint64_t fraction = whole_ns % 1000000000;
  if (fraction == 0) return out;
  // The fraction's nine digits, leading zeros included, after a 1 that becomes the point.
  char* const point = out;
  out = put_count(out, 1000000000 + fraction);
  *point = '.';
  while (out[-1] == '0') --out;
  return out;
}

// Copies `size` bytes in blocks of 16, the last one whole: up to 15 bytes more are
// read after `from` and written after `out`, which both must have room for (a
// call's end of line is checked once, not a copy's). Short copies are most of the
// page; as blocks they take a few instructions where a call of memcpy takes more.
constexpr size_t copy_block = 16;
static_assert(label_padding + 1 >= copy_block, "a label's last block stays in what may be read");
char* copy_padded(char* out, const char* from, size_t size) {
  for (size_t i = 0; i < size; i += copy_block) __builtin_memcpy(out + i, from + i, copy_block);
  return out + size;
}

// `name{labels} ` or, without labels, `name `.
char* put_line_start(char* out, std::string_view name, std::string_view labels) {
  out = put(out, name);
  if (!labels.empty()) {
    *out++ = '{';
    out = copy_padded(out, labels.data(), labels.size());
    *out++ = '}';
  }
  *out++ = ' ';
  return out;
}

constexpr size_t histogram_lines = std::size(latency_bucket_bounds_seconds) + 3;  // +Inf, _sum, _count
constexpr size_t longest_more = 16;                                               // `,le="..."} `
constexpr size_t longest_value = 32;  // a count, seconds, or a double's shortest form
constexpr size_t line_slack = 2 * copy_block;

}  // namespace

metrics_format metrics_format_for(std::string_view accept) {
  return accept.find("application/openmetrics-text") != std::string_view::npos ? metrics_format::openmetrics
                                                                               : metrics_format::prometheus;
}

const char* metrics_content_type(metrics_format format) {
  return format == metrics_format::openmetrics ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
                                               : "text/plain; version=0.0.4; charset=utf-8";
}

std::string function_label_text(std::string_view name, std::string_view file, unsigned line) {
  std::string text;
  char digits[24];
  append_label(text, 0, "function", name);
  append_label(text, 0, "file", file);
  append_label(text, 0, "line", std::string_view(digits, static_cast<size_t>(put_count(digits, line) - digits)));
  return text;
}

// Exited threads leave the per-thread series: their rows are folded into one per
// name (the label tid="exited"), whose samples are the sums of theirs, so that every
// series is a counter that only grows (Prometheus's rule) and their number stays
// bounded however many threads come and go. Every line repeats its row's labels:
// they are escaped once here, copied after.
template <typename Row>
void metrics_page::fold_thread_rows(label_set set, const std::vector<Row>& rows) {
  std::vector<std::vector<size_t>> folded;
  std::map<std::string_view, size_t> exited_by_name;  // bounded: so are the snapshot's rows of exited threads
  for (size_t r = 0; r < rows.size(); ++r) {
    if (!rows[r].exited) {
      folded.push_back({r});
      continue;
    }
    const auto [at, made] = exited_by_name.try_emplace(rows[r].name, folded.size());
    if (made) folded.emplace_back();
    folded[at->second].push_back(r);
  }
  thread_rows& page_rows = thread_rows_[static_cast<size_t>(set) - 1];
  for (const std::vector<size_t>& sources : folded) {
    const Row& first = rows[sources.front()];
    const size_t start = page_rows.label_text.size();
    char digits[24];
    const std::string_view tid_text(
        digits, static_cast<size_t>(std::to_chars(digits, digits + sizeof digits, first.tid).ptr - digits));
    append_label(page_rows.label_text, start, "tid", first.exited ? "exited" : tid_text);
    append_label(page_rows.label_text, start, "thread", first.name);
    page_rows.label_ends.push_back(page_rows.label_text.size());
    page_rows.sources.insert(page_rows.sources.end(), sources.begin(), sources.end());
    page_rows.source_ends.push_back(page_rows.sources.size());
  }
  page_rows.label_text.append(label_padding, '\0');
}

uint64_t metrics_page::snapshot_sample(const family& f, size_t row) const {
  if (f.labels == label_set::none) return f.snapshot_count(c_.counts, row);
  const thread_rows& page_rows = thread_rows_[static_cast<size_t>(f.labels) - 1];
  uint64_t sum = 0;
  for (size_t i = row == 0 ? 0 : page_rows.source_ends[row - 1]; i < page_rows.source_ends[row]; ++i)
    sum += f.snapshot_count(c_.counts, page_rows.sources[i]);
  return sum;
}

metrics_page::metrics_page(const snapshot& taken, metrics_format format)
    : metrics_page(metrics_content{{}, taken}, format) {
  c_.counts.functions.clear();
  std::vector<const function_stats*> by_name;
  for (const function_stats& f : taken.functions) by_name.push_back(&f);
  std::sort(by_name.begin(), by_name.end(), [](const function_stats* a, const function_stats* b) {
    return before_on_page({a->name, a->file, a->line}, {b->name, b->file, b->line});
  });
  std::vector<size_t> ends;
  for (const function_stats* f : by_name) {
    function_labels_ += function_label_text(f->name, f->file, f->line);
    ends.push_back(function_labels_.size());
  }
  function_labels_.append(label_padding, '\0');
  c_.functions.reserve(by_name.size());
  for (size_t row = 0; row < by_name.size(); ++row) {
    const function_stats& f = *by_name[row];
    const size_t start = row == 0 ? 0 : ends[row - 1];
    metrics_function& m = c_.functions.emplace_back();
    m.labels = std::string_view(function_labels_).substr(start, ends[row] - start);
    m.row = f;
    for (size_t b = 0; b < m.latency.size(); ++b)
      m.latency[b] = b < f.latency_buckets.size() ? f.latency_buckets[b] : f.timed_calls;
  }
}

metrics_page::metrics_page(metrics_content content, metrics_format format)
    : c_(std::move(content)), openmetrics_(format == metrics_format::openmetrics) {
  const snapshot& counts = c_.counts;
  const bool allocations = counts.allocations.counting != allocation_counting::inactive;
  using fs = label_set;
  for (const report_format::function_column& c : report_format::function_columns)
    if (c.metric != report_format::metric_kind::none && (allocations || !c.metric_needs_allocations))
      families_.push_back({c.metric_name, c.metric == report_format::metric_kind::histogram ? "histogram" : "counter",
                           c.metric_help, fs::functions, &c});
  // The components' families: each thread's calls, the tick log's, the allocation
  // counters', the sampler's.
  for (const metric_family& f : metric_families()) {
    if (f.shown != nullptr && !f.shown(counts)) continue;
    const label_set labels = f.per == metric_family::rows::threads              ? fs::threads
                             : f.per == metric_family::rows::allocation_threads ? fs::allocation_threads
                                                                                : fs::none;
    families_.push_back({f.name, f.type, f.help, labels, nullptr, f.count});
  }

  fold_thread_rows(fs::threads, counts.threads);
  fold_thread_rows(fs::allocation_threads, counts.allocations.threads);

  // The buckets' bounds are the same in every process, so that sums over a fleet hold.
  for (size_t b = 0; b < buckets_.size(); ++b) {
    char bound[24] = "+Inf";
    const char* end = b < std::size(latency_bucket_bounds_seconds)
                          ? std::to_chars(bound, bound + sizeof bound, latency_bucket_bounds_seconds[b]).ptr
                          : bound + 4;
    bucket_text& text = buckets_[b];
    text = {};
    char* at = put(text.text, ",le=\"");
    at = put(at, std::string_view(bound, static_cast<size_t>(end - bound)));
    at = put(at, "\"} ");
    text.size = static_cast<size_t>(at - text.text);
  }
}

size_t metrics_page::rows(const family& f) const {
  switch (f.labels) {
    case label_set::functions: return c_.functions.size();
    case label_set::threads:
    case label_set::allocation_threads: return thread_rows_[static_cast<size_t>(f.labels) - 1].label_ends.size();
    case label_set::none: return 1;
  }
  return 0;
}

std::string_view metrics_page::labels(label_set set, size_t row) const {
  if (set == label_set::none) return {};
  if (set == label_set::functions) return c_.functions[row].labels;
  const thread_rows& page_rows = thread_rows_[static_cast<size_t>(set) - 1];
  const size_t start = row == 0 ? 0 : page_rows.label_ends[row - 1];
  return std::string_view(page_rows.label_text).substr(start, page_rows.label_ends[row] - start);
}

size_t metrics_page::next_bound() const {
  if (family_ == families_.size()) return 8;  // `# EOF`
  const family& f = families_[family_];
  if (row_ == 0) return 2 * f.name.size() + f.help.size() + f.type.size() + 32;
  const size_t line = f.name.size() + labels(f.labels, row_ - 1).size() + longest_more + longest_value + line_slack;
  return f.histogram() ? histogram_lines * line : line;
}

char* metrics_page::write_next(char* out) const {
  if (family_ == families_.size()) return put(out, "# EOF\n");
  const family& f = families_[family_];
  if (row_ != 0) return write_row(f, row_ - 1, out);
  // A counter's family name has no `_total` in OpenMetrics; its samples have it in both formats.
  const std::string_view name = openmetrics_ && f.type == "counter"
                                    ? f.name.substr(0, f.name.size() - std::string_view("_total").size())
                                    : f.name;
  out = put(out, "# HELP ");
  out = put(out, name);
  *out++ = ' ';
  out = put(out, f.help);
  out = put(out, "\n# TYPE ");
  out = put(out, name);
  *out++ = ' ';
  out = put(out, f.type);
  *out++ = '\n';
  return out;
}

char* metrics_page::write_row(const family& f, size_t row, char* out) const {
  const std::string_view row_labels = labels(f.labels, row);
  if (!f.histogram()) {
    out = put_line_start(out, f.name, row_labels);
    if (f.snapshot_count != nullptr) out = put_count(out, snapshot_sample(f, row));
    else if (f.column->metric == report_format::metric_kind::count)
      out = put_count(out, f.column->count(c_.functions[row].row));
    else out = put_seconds(out, f.column->number(c_.functions[row].row));
    *out++ = '\n';
    return out;
  }
  const metrics_function& m = c_.functions[row];
  const function_stats& fn = m.row;
  // Every bucket's line starts as the first one does: copied from it.
  char* const first = out;
  out = put(out, "perf_function_duration_seconds_bucket{");
  out = copy_padded(out, row_labels.data(), row_labels.size());
  const size_t prefix = static_cast<size_t>(out - first);
  for (size_t b = 0; b < buckets_.size(); ++b) {
    if (b != 0) out = copy_padded(out, first, prefix);
    out = copy_padded(out, buckets_[b].text, buckets_[b].size);
    // The histogram may lag the count by a running thread's last few calls: the
    // buckets are cut to the count, so that they never exceed _count.
    out = put_count(out, b < m.latency.size() ? std::min(m.latency[b], fn.timed_calls) : fn.timed_calls);
    *out++ = '\n';
  }
  out = put_line_start(out, "perf_function_duration_seconds_sum", row_labels);
  out = put_seconds(out, fn.timed_mean_ns * static_cast<double>(fn.timed_calls));
  out = put(out, "\n");
  out = put_line_start(out, "perf_function_duration_seconds_count", row_labels);
  out = put_count(out, fn.timed_calls);
  *out++ = '\n';
  return out;
}

void metrics_page::advance() {
  if (family_ == families_.size()) {
    done_ = true;
    return;
  }
  if (++row_ <= rows(families_[family_])) return;
  row_ = 0;
  ++family_;
  if (family_ == families_.size() && !openmetrics_) done_ = true;
}

size_t metrics_page::read(char* out, size_t room) {
  char* at = out;
  char* const end = out + room;
  for (;;) {
    if (staged_at_ < staged_.size()) {
      const size_t n = std::min(staged_.size() - staged_at_, static_cast<size_t>(end - at));
      std::memcpy(at, staged_.data() + staged_at_, n);
      staged_at_ += n;
      at += n;
      if (staged_at_ < staged_.size()) return static_cast<size_t>(at - out);
    }
    if (done_) break;
    const size_t bound = next_bound();
    if (bound <= static_cast<size_t>(end - at)) {
      at = write_next(at);
    } else if (at == out) {  // not even one piece fits: it goes out in parts
      staged_.resize(bound);
      staged_.resize(static_cast<size_t>(write_next(staged_.data()) - staged_.data()));
      staged_at_ = 0;
    } else {
      break;
    }
    advance();
  }
  return static_cast<size_t>(at - out);
}

}  // namespace perf::runtime
