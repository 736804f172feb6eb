// The allocation counters' section of the report: the process's totals and a line
// per thread that allocated, living or exited.
#include <fmt/format.h>

#include "alloc/inactive_reason.hpp"
#include "core/report_sections.hpp"
#include "core/startup.hpp"
#include "perf/report.hpp"
#include "report_format/escaping.hpp"
#include "report_format/text_format.hpp"

namespace perf::runtime {

using report_format::format_count_of;
using report_format::json_string;
using report_format::thread_title;

namespace {

std::string allocation_lines(const snapshot& s) {
  const allocation_stats& a = s.allocations;
  if (a.counting == allocation_counting::inactive) {
    // Not linked: the program asked for no counting. Linked but not called: say why.
    const std::string why = counting_inactive_reason();
    return why.empty() ? std::string() : "allocation counting inactive: " + why + "\n";
  }
  thread_allocations total;
  for (const thread_allocations& t : a.threads) {
    total.allocations += t.allocations;
    total.bytes += t.bytes;
    total.frees += t.frees;
    total.bytes_freed += t.bytes_freed;
  }
  std::string out = fmt::format("allocations ({}): {} of {}, {} of {}, in all\n", counting_name(a.counting),
                                format_count_of(total.allocations, "allocation"), format_count_of(total.bytes, "byte"),
                                format_count_of(total.frees, "free"), format_count_of(total.bytes_freed, "byte"));
  for (const thread_allocations& t : a.threads)
    out += fmt::format("  {}: {}, {}; {}, {}; peak {}\n", thread_title(t.tid, t.name, t.threads, t.exited),
                       format_count_of(t.allocations, "allocation"), format_count_of(t.bytes, "byte"),
                       format_count_of(t.frees, "free"), format_count_of(t.bytes_freed, "byte"),
                       format_count_of(t.peak_live_bytes, "live byte"));
  return out;
}

std::string allocation_json(const snapshot& s) {
  std::string out =
      fmt::format("{{\"counting\": {}, \"threads\": [", json_string(counting_name(s.allocations.counting)));
  for (size_t i = 0; i < s.allocations.threads.size(); ++i) {
    const thread_allocations& t = s.allocations.threads[i];
    out += fmt::format(
        "{}{{\"tid\": {}, \"name\": {}, \"threads\": {}, \"exited\": {}, \"allocations\": {}, \"bytes\": {}, "
        "\"frees\": {}, \"bytes_freed\": {}, \"peak_live_bytes\": {}}}",
        i == 0 ? "" : ", ", t.tid, json_string(t.name), t.threads, t.exited, t.allocations, t.bytes, t.frees,
        t.bytes_freed, t.peak_live_bytes);
  }
  return out + "]}";
}

PERF_RUNTIME_ON_START(register_allocations_section) {
  add_report_section({200, "allocations", allocation_json, allocation_lines});
}

}  // namespace
}  // namespace perf::runtime
