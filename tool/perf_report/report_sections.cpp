#include "report_sections.hpp"

#include <fmt/format.h>

#include "parsed_report.hpp"

namespace perf::report_tool {
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

  void non_negative(const json& parent, std::initializer_list<const char*> keys, const std::string& where) const {
    for (const char* key : keys) {
      const json* found = member(parent, key);
      if (found == nullptr) continue;
      if (!found->is_number()) fail(where, fmt::format("\"{}\" is not a number", key));
      if (found->get<double>() < 0) fail(where, fmt::format("\"{}\" is negative", key));
    }
  }

  void typed(const json& parent, const char* key, json::value_t type, const char* name,
             const std::string& where) const {
    const json* found = member(parent, key);
    if (found != nullptr && found->type() != type) fail(where, fmt::format("\"{}\" is not {}", key, name));
  }

  // A list of sampled locations (samples.top, .lines, .measured, .stacks).
  void sample_rows(const json& parent, const char* key, const std::string& where) const {
    const json* list = rows(parent, key, where);
    if (list == nullptr) return;
    for (size_t i = 0; i < list->size(); ++i) {
      const json& row = (*list)[i];
      const std::string at = fmt::format("{}[{}]", path(where, key), i);
      counts(row, {"samples", "samples_at_most"}, at);
      non_negative(row, {"share"}, at);
      if (row.contains("share") && row["share"].get<double>() > 1) fail(at, "\"share\" is above 1");
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
    check.counts(*overhead, {"calls"}, "probe_overhead");
    check.non_negative(*overhead, {"ns", "process_cpu_ns"}, "probe_overhead");
  }
  if (const json* samples = check.object(document, "samples", "")) {
    check.counts(*samples, {"hz", "total", "dropped", "probe_samples"}, "samples");
    for (const char* list : {"top", "lines", "measured", "stacks"}) check.sample_rows(*samples, list, "samples");
    if (const json* threads = check.rows(*samples, "threads", "samples")) {
      for (size_t i = 0; i < threads->size(); ++i) {
        const std::string at = fmt::format("samples.threads[{}]", i);
        check.counts((*threads)[i], {"samples"}, at);
        check.sample_rows((*threads)[i], "top", at);
      }
    }
    if (const json* unlisted = check.object(*samples, "unlisted_at_most", "samples"))
      check.counts(*unlisted, {"top", "lines"}, "samples.unlisted_at_most");
  }
}

}  // namespace perf::report_tool
