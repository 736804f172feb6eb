#include "report_sections.hpp"

#include <fmt/format.h>

#include "parsed_report.hpp"

namespace perf::perf_report {
namespace {

using nlohmann::json;

class section_checker {
 public:
  explicit section_checker(const std::string& file) : file_(file) {}

  [[noreturn]] void fail(const std::string& where, const std::string& problem) const {
    throw input_error(fmt::format("{}: {} {}", file_, where, problem));
  }

  // The member `key` of `object` when present (else null), checked to be an object.
  const json* object(const json& parent, const char* key, const std::string& where) const {
    const json* found = member(parent, key);
    if (found != nullptr && !found->is_object()) fail(path(where, key), "is not an object");
    return found;
  }

  // The member `key` when present, checked to be an array of objects.
  const json* rows(const json& parent, const char* key, const std::string& where) const {
    const json* found = member(parent, key);
    if (found == nullptr) return nullptr;
    const std::string at = path(where, key);
    if (!found->is_array()) fail(at, "is not an array");
    for (size_t i = 0; i < found->size(); ++i)
      if (!(*found)[i].is_object()) fail(fmt::format("{}[{}]", at, i), "is not an object");
    return found;
  }

  void counts(const json& parent, std::initializer_list<const char*> keys, const std::string& where) const {
    for (const char* key : keys) {
      const json* found = member(parent, key);
      if (found == nullptr) continue;
      if (!found->is_number_unsigned()) fail(where, fmt::format("\"{}\" is not a non-negative integer", key));
      if (found->get<uint64_t>() > max_count) fail(where, fmt::format("\"{}\" is above 2^53", key));
    }
  }

  // Times: not negative, nor above what a 64-bit clock counts.
  void times(const json& parent, std::initializer_list<const char*> keys, const std::string& where) const {
    for (const char* key : keys) {
      const json* found = member(parent, key);
      if (found == nullptr) continue;
      if (!found->is_number()) fail(where, fmt::format("\"{}\" is not a number", key));
      if (found->get<double>() < 0) fail(where, fmt::format("\"{}\" is negative", key));
      if (found->get<double>() > max_duration_ns)
        fail(where, fmt::format("\"{}\" is above 2^64 ns, more than a clock counts", key));
    }
  }

  // `key` of `parent` as checked by counts() (absent: 0).
  static uint64_t count_of(const json& parent, const char* key) {
    const json* found = member(parent, key);
    return found == nullptr ? 0 : found->get<uint64_t>();
  }

  // `key` of `parent`, a count, is at most `bound`, the `bound_name` it is part of.
  void within(const json& parent, const char* key, uint64_t bound, const std::string& bound_name,
              const std::string& where) const {
    if (const uint64_t n = count_of(parent, key); n > bound)
      fail(where, fmt::format("\"{}\" is {}, more than the {} of {}", key, n, bound, bound_name));
  }

  void typed(const json& parent, const char* key, json::value_t type, const char* name,
             const std::string& where) const {
    const json* found = member(parent, key);
    if (found != nullptr && found->type() != type) fail(where, fmt::format("\"{}\" is not {}", key, name));
  }

  // A list of sampled locations (samples.top, .lines, .measured, .stacks, a thread's
  // top), each sample in one row at most: rows of `total` samples, `total_name`.
  void sample_rows(const json& parent, const char* key, const std::string& where, uint64_t total,
                   const std::string& total_name) const {
    const json* list = rows(parent, key, where);
    if (list == nullptr) return;
    const std::string list_path = path(where, key);
    uint64_t listed = 0;
    for (size_t i = 0; i < list->size(); ++i) {
      const json& row = (*list)[i];
      const std::string at = fmt::format("{}[{}]", list_path, i);
      counts(row, {"samples", "samples_at_most"}, at);
      for (const char* figure : {"samples", "samples_at_most"}) within(row, figure, total, total_name, at);
      listed += count_of(row, "samples");  // each at most 2^53: no wrap
      if (listed > total)
        fail(list_path,
             fmt::format("counts {} samples up to [{}], more than the {} of {}", listed, i, total, total_name));
      const json* share = member(row, "share");
      if (share != nullptr && !share->is_number()) fail(at, "\"share\" is not a number");
      if (share != nullptr && share->get<double>() < 0) fail(at, "\"share\" is negative");
      if (share != nullptr && share->get<double>() > 1) fail(at, "\"share\" is above 1");
    }
  }

 private:
  static const json* member(const json& parent, const char* key) {
    const auto found = parent.find(key);
    return found == parent.end() ? nullptr : &*found;
  }
  static std::string path(const std::string& where, const char* key) {
    return where.empty() ? key : fmt::format("{}.{}", where, key);
  }

  const std::string& file_;
};

}  // namespace

void check_sections(const json& document, const std::string& file) {
  const section_checker check(file);
  check.typed(document, "pid", json::value_t::number_unsigned, "a non-negative integer", "the report");
  check.typed(document.at("clock"), "source", json::value_t::string, "a string", "clock");
  check.rows(document, "threads", "");
  if (const json* allocations = check.object(document, "allocations", "")) {
    check.typed(*allocations, "counting", json::value_t::string, "a string", "allocations");
    check.rows(*allocations, "threads", "allocations");
  }
  if (const json* ticklog = check.object(document, "ticklog", "")) {
    check.typed(*ticklog, "enabled", json::value_t::boolean, "a boolean", "ticklog");
    check.counts(*ticklog, {"events", "dropped", "ring_events"}, "ticklog");
  }
  if (const json* overhead = check.object(document, "probe_overhead", "")) {
    check.counts(*overhead, {"calls", "untimed_calls", "dominated_functions", "dominated_calls"}, "probe_overhead");
    check.times(*overhead, {"ns", "process_cpu_ns", "dominated_ns"}, "probe_overhead");
  }
  if (const json* checks = check.object(document, "probe_checks", "")) {
    check.counts(*checks, {"checks", "above"}, "probe_checks");
    check.times(*checks, {"highest_ns"}, "probe_checks");
  }
  // Every sample is counted in `total` once: no list, thread or part holds more.
  if (const json* samples = check.object(document, "samples", "")) {
    check.counts(*samples, {"hz", "total", "interrupts", "dropped", "probe_samples", "unsampled_threads"}, "samples");
    check.typed(*samples, "unsampled_why", json::value_t::string, "a string", "samples");
    const uint64_t total = section_checker::count_of(*samples, "total");
    const std::string of_total = "samples.total";
    for (const char* part : {"interrupts", "probe_samples"}) check.within(*samples, part, total, of_total, "samples");
    for (const char* list : {"top", "lines", "measured", "stacks"})
      check.sample_rows(*samples, list, "samples", total, of_total);
    if (const json* threads = check.rows(*samples, "threads", "samples")) {
      uint64_t sampled = 0;
      for (size_t i = 0; i < threads->size(); ++i) {
        const std::string at = fmt::format("samples.threads[{}]", i);
        const json& thread = (*threads)[i];
        check.counts(thread, {"samples"}, at);
        check.within(thread, "samples", total, of_total, at);
        sampled += section_checker::count_of(thread, "samples");
        if (sampled > total)
          check.fail("samples.threads",
                     fmt::format("count {} samples up to [{}], more than the {} of {}", sampled, i, total, of_total));
        check.sample_rows(thread, "top", at, section_checker::count_of(thread, "samples"), at + ".samples");
      }
    }
    if (const json* unlisted = check.object(*samples, "unlisted_at_most", "samples")) {
      check.counts(*unlisted, {"top", "lines"}, "samples.unlisted_at_most");
      for (const char* list : {"top", "lines"})
        check.within(*unlisted, list, total, of_total, "samples.unlisted_at_most");
    }
  }
}

}  // namespace perf::perf_report
