// The captures' section of the report (PERF_CAPTURE): each capture written, with its
// function, the call's duration and the file, and how many the rate left out.
// Nothing, and JSON `null`, when no rule is set.
#include <fmt/format.h>

#include "core/report_sections.hpp"
#include "core/startup.hpp"
#include "report_format/escaping.hpp"
#include "report_format/text_format.hpp"
#include "ticklog/capture_config.hpp"
#include "ticklog/captures.hpp"
#include "ticklog/trace_stream.hpp"

namespace perf::runtime {
namespace {

std::string capture_lines(const snapshot&) {
  const capture_config& config = current_capture_config();
  if (config.rules.empty()) return {};
  const captures_so_far taken = captures_taken();
  std::string out = fmt::format("captures: {} written, {} skipped (PERF_CAPTURE_RATE={} a minute)\n",
                                report_format::format_count(taken.listed.size() + taken.unlisted),
                                report_format::format_count(taken.skipped), config.per_minute);
  for (const capture_taken& capture : taken.listed)
    out += fmt::format("  {}  {}  {}\n", capture.function,
                       report_format::format_duration(static_cast<double>(capture.duration_ns)), capture.file);
  if (taken.unlisted != 0) out += fmt::format("  and {} more\n", report_format::format_count(taken.unlisted));
  return out;
}

std::string capture_json(const snapshot&) {
  if (current_capture_config().rules.empty()) return "null";
  const captures_so_far taken = captures_taken();
  std::string out = "{\"written\": [";
  for (size_t i = 0; i < taken.listed.size(); ++i)
    out += fmt::format("{}{{\"function\": {}, \"duration_ns\": {}, \"file\": {}}}", i == 0 ? "" : ", ",
                       report_format::json_string(taken.listed[i].function), taken.listed[i].duration_ns,
                       report_format::json_string(taken.listed[i].file));
  out += fmt::format("], \"unlisted\": {}, \"skipped\": {}, \"events_read\": {}}}", taken.unlisted, taken.skipped,
                     stream_events_read());
  return out;
}

PERF_RUNTIME_ON_START(register_capture_section) { add_report_section({110, "captures", capture_json, capture_lines}); }

}  // namespace
}  // namespace perf::runtime
