#include "export/metrics.hpp"

#include <charconv>
#include <cmath>
#include <cstring>

namespace perf::runtime {
namespace {

// Writes lines into one buffer with plain copies, no formatting library: 10,000
// functions take a few hundred thousand lines, each repeating its labels.
class writer {
 public:
  explicit writer(metrics_format format) : openmetrics_(format == metrics_format::openmetrics) {}

  // `# HELP` and `# TYPE` of a family; a counter's family name has no `_total`
  // in OpenMetrics, its samples do in both formats.
  void family(std::string_view name, std::string_view type, std::string_view help) {
    const bool counter = type == "counter";
    const std::string_view family_name =
        counter && openmetrics_ ? name.substr(0, name.size() - std::string_view("_total").size()) : name;
    room(2 * family_name.size() + help.size() + type.size() + 16);
    put("# HELP ");
    put(family_name);
    put(" ");
    put(help);
    put("\n# TYPE ");
    put(family_name);
    put(" ");
    put(type);
    put("\n");
  }

  // `name{labels more} value`: `labels` already escaped and joined, may be empty;
  // `more` follows them (a bucket's `,le="..."`).
  void sample(std::string_view name, std::string_view labels, uint64_t value, std::string_view more = {}) {
    start(name, labels, more);
    end_ = std::to_chars(end_, end_ + 24, value).ptr;
    put("\n");
  }
  void sample(std::string_view name, std::string_view labels, double value) {
    start(name, labels, {});
    end_ = std::to_chars(end_, end_ + 32, value).ptr;
    put("\n");
  }

  // Makes room for `bytes` more at once: growing a buffer of tens of megabytes step by
  // step costs more than writing it.
  void reserve(size_t bytes) { room(bytes); }

  std::string finish() {
    if (openmetrics_) {
      room(8);
      put("# EOF\n");
    }
    out_.resize(static_cast<size_t>(end_ - out_.data()));
    return std::move(out_);
  }

 private:
  void start(std::string_view name, std::string_view labels, std::string_view more) {
    room(name.size() + labels.size() + more.size() + 40);  // and the value, the braces, the line feed
    put(name);
    if (!labels.empty()) {
      *end_++ = '{';
      put(labels);
      put(more);
      *end_++ = '}';
    }
    *end_++ = ' ';
  }

  // Makes room for `bytes` more, growing the buffer by half its size at least.
  void room(size_t bytes) {
    const size_t used = static_cast<size_t>(end_ - out_.data());
    if (out_.size() - used >= bytes) return;
    out_.resize(std::max(out_.size() + out_.size() / 2, used + bytes) + 65536);
    end_ = out_.data() + used;
  }

  void put(std::string_view text) {
    if (text.empty()) return;  // its data() may be null, which memcpy must not get
    std::memcpy(end_, text.data(), text.size());
    end_ += text.size();
  }

  bool openmetrics_;
  std::string out_ = std::string(65536, '\0');
  char* end_ = out_.data();
};

// A label value as both formats quote it: backslash, double quote and line feed
// escaped; bytes that are not UTF-8 become U+FFFD (a scraper rejects the whole page
// for one of them).
void append_label_value(std::string& out, std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else if (c < 0x80) out += static_cast<char>(c);
    else {
      const size_t length = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
      bool valid = length != 0 && i + length <= text.size();
      for (size_t k = 1; valid && k < length; ++k) valid = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
      if (valid) {
        out.append(text.substr(i, length));
        i += length - 1;
      } else {
        out += "\xEF\xBF\xBD";
      }
    }
  }
}

void append_label(std::string& out, std::string_view name, std::string_view value) {
  if (!out.empty()) out += ',';
  out += name;
  out += "=\"";
  append_label_value(out, value);
  out += '"';
}

std::string function_labels(const function_stats& f) {
  std::string labels;
  append_label(labels, "function", f.name);
  append_label(labels, "file", f.file);
  append_label(labels, "line", std::to_string(f.line));
  return labels;
}

std::string thread_labels(long tid, std::string_view name) {
  std::string labels;
  append_label(labels, "tid", std::to_string(tid));
  append_label(labels, "thread", name);
  return labels;
}

std::string bound_text(double seconds) {
  char digits[32];
  return std::string(digits, std::to_chars(digits, digits + sizeof digits, seconds).ptr);
}

void add_functions(writer& w, const snapshot& s, bool allocations) {
  std::vector<std::string> labels;
  labels.reserve(s.functions.size());
  for (const function_stats& f : s.functions) labels.push_back(function_labels(f));
  const size_t n = s.functions.size();
  size_t label_bytes = 0;
  for (const std::string& l : labels) label_bytes += l.size();
  // Every line repeats its labels: 5 counters and 20 lines of histogram per function.
  w.reserve(label_bytes * 25 + n * 25 * 64);

  w.family("perf_function_calls_total", "counter", "Finished calls of a measured function.");
  for (size_t i = 0; i < n; ++i) w.sample("perf_function_calls_total", labels[i], s.functions[i].calls);
  w.family("perf_function_seconds_total", "counter", "Time inside a measured function, recursion counted once.");
  for (size_t i = 0; i < n; ++i) w.sample("perf_function_seconds_total", labels[i], s.functions[i].total_ns * 1e-9);
  w.family("perf_function_self_seconds_total", "counter", "Time inside a measured function but not in measured callees.");
  for (size_t i = 0; i < n; ++i)
    w.sample("perf_function_self_seconds_total", labels[i], s.functions[i].self_ns * 1e-9);
  if (allocations) {
    w.family("perf_function_allocations_total", "counter", "Heap allocations during a measured function, callees included.");
    for (size_t i = 0; i < n; ++i)
      w.sample("perf_function_allocations_total", labels[i],
               static_cast<uint64_t>(std::llround(s.functions[i].alloc_count * static_cast<double>(s.functions[i].calls))));
    w.family("perf_function_allocated_bytes_total", "counter", "Bytes allocated during a measured function, callees included.");
    for (size_t i = 0; i < n; ++i)
      w.sample("perf_function_allocated_bytes_total", labels[i],
               static_cast<uint64_t>(std::llround(s.functions[i].alloc_bytes * static_cast<double>(s.functions[i].calls))));
  }

  // The buckets' bounds are the same in every process, so that sums over a fleet hold.
  std::vector<std::string> bucket_labels;
  for (double bound : latency_bucket_bounds_seconds) bucket_labels.push_back(",le=\"" + bound_text(bound) + "\"");
  w.family("perf_function_duration_seconds", "histogram", "Duration of each call of a measured function.");
  for (size_t i = 0; i < n; ++i) {
    const function_stats& f = s.functions[i];
    // The histogram may lag the count by a running thread's last few calls: the
    // buckets are cut to the count, so that they never exceed _count.
    for (size_t b = 0; b < bucket_labels.size(); ++b)
      w.sample("perf_function_duration_seconds_bucket", labels[i],
               b < f.latency_buckets.size() ? std::min(f.latency_buckets[b], f.calls) : f.calls, bucket_labels[b]);
    w.sample("perf_function_duration_seconds_bucket", labels[i], f.calls, ",le=\"+Inf\"");
    w.sample("perf_function_duration_seconds_sum", labels[i], f.mean_ns * static_cast<double>(f.calls) * 1e-9);
    w.sample("perf_function_duration_seconds_count", labels[i], f.calls);
  }
}

void add_threads(writer& w, const snapshot& s) {
  std::vector<std::string> labels;
  for (const thread_stats& t : s.threads) labels.push_back(thread_labels(t.tid, t.name));
  w.family("perf_thread_calls_total", "counter", "Finished calls of measured functions on a thread.");
  for (size_t i = 0; i < labels.size(); ++i) w.sample("perf_thread_calls_total", labels[i], s.threads[i].calls);
  w.family("perf_thread_tick_events", "gauge", "Tick-log events a thread's ring holds.");
  for (size_t i = 0; i < labels.size(); ++i) w.sample("perf_thread_tick_events", labels[i], s.threads[i].tick_events);
  w.family("perf_thread_tick_dropped_total", "counter", "Older tick-log events a thread's ring overwrote.");
  for (size_t i = 0; i < labels.size(); ++i)
    w.sample("perf_thread_tick_dropped_total", labels[i], s.threads[i].tick_dropped);
}

void add_thread_allocations(writer& w, const snapshot& s) {
  std::vector<std::string> labels;
  for (const thread_allocations& t : s.allocations.threads) labels.push_back(thread_labels(t.tid, t.name));
  const auto& rows = s.allocations.threads;
  w.family("perf_thread_allocations_total", "counter", "Heap allocations made by a thread.");
  for (size_t i = 0; i < rows.size(); ++i) w.sample("perf_thread_allocations_total", labels[i], rows[i].allocations);
  w.family("perf_thread_allocated_bytes_total", "counter", "Bytes allocated by a thread.");
  for (size_t i = 0; i < rows.size(); ++i) w.sample("perf_thread_allocated_bytes_total", labels[i], rows[i].bytes);
  w.family("perf_thread_frees_total", "counter", "Heap blocks freed by a thread.");
  for (size_t i = 0; i < rows.size(); ++i) w.sample("perf_thread_frees_total", labels[i], rows[i].frees);
  w.family("perf_thread_freed_bytes_total", "counter", "Bytes freed by a thread.");
  for (size_t i = 0; i < rows.size(); ++i) w.sample("perf_thread_freed_bytes_total", labels[i], rows[i].bytes_freed);
}

}  // namespace

metrics_format metrics_format_for(std::string_view accept) {
  return accept.find("application/openmetrics-text") != std::string_view::npos ? metrics_format::openmetrics
                                                                                : metrics_format::prometheus;
}

const char* metrics_content_type(metrics_format format) {
  return format == metrics_format::openmetrics ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
                                               : "text/plain; version=0.0.4; charset=utf-8";
}

std::string format_metrics(const snapshot& s, metrics_format format) {
  writer w(format);
  const bool allocations = s.allocations.counting != "inactive";
  add_functions(w, s, allocations);
  add_threads(w, s);
  if (allocations) add_thread_allocations(w, s);
  w.family("perf_ticklog_events", "gauge", "Tick-log events the rings hold, all threads.");
  w.sample("perf_ticklog_events", "", s.ticklog.events);
  w.family("perf_ticklog_dropped_total", "counter", "Tick-log events overwritten, all threads.");
  w.sample("perf_ticklog_dropped_total", "", s.ticklog.dropped);
  if (s.samples.hz != 0) {
    w.family("perf_samples_total", "counter", "Samples the sampling profiler took, all threads.");
    w.sample("perf_samples_total", "", s.samples.total);
    w.family("perf_samples_dropped_total", "counter", "Samples the profiler had no room for.");
    w.sample("perf_samples_dropped_total", "", s.samples.dropped);
  }
  return w.finish();
}

}  // namespace perf::runtime
