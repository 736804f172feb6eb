#include "report_ranges.hpp"

#include <fmt/format.h>

#include "record_columns.hpp"
#include "report_format/function_columns.hpp"
#include "report_sections.hpp"

namespace perf::perf_report {

using report_format::function_field;
using report_format::json_name;
using report_format::moments_field;
using report_format::range_rule;

void check_function_ranges(const function_record& f, const std::string& report_path, const std::string& where) {
  using enum function_field;
  const std::string in_moments = fmt::format("{}.{}", where, json_name(moments));
  auto fail = [&](const std::string& in, const std::string& problem) {
    throw input_error(fmt::format("{}: {} {}", report_path, in, problem));
  };
  for (const report_format::function_column& c : report_format::function_columns)
    if (c.range == range_rule::count &&
        f.*std::get<uint64_t function_record::*>(record_column_of(c.field).member) > max_count)
      fail(where, fmt::format("\"{}\" is above 2^53, more than a report can count", c.json));
  // Times: not negative, and within what a 64-bit clock counts at a nanosecond a tick
  // (merged, summed and squared, they stay finite).
  const auto time_in_range = [&](const std::string& in, std::string_view name, double ns) {
    if (ns < 0) fail(in, fmt::format("\"{}\" is negative", name));
    if (ns > max_duration_ns) fail(in, fmt::format("\"{}\" is above 2^64 ns, more than a clock counts", name));
  };
  for (const report_format::function_column& c : report_format::function_columns)
    if (c.range == range_rule::duration)
      time_in_range(where, c.json, f.*std::get<double function_record::*>(record_column_of(c.field).member));
  time_in_range(in_moments, json_name(moments_field::mean_ns), f.mean_ns);
  // The invariants every report keeps (docs/report-format.md), to the 0.1 ns its
  // figures are written to: a report that breaks one was not made by the runtime, or by
  // one before issue 36.
  constexpr double written_to_ns = 0.1;
  if (f.self_ns > f.total_ns + written_to_ns)
    fail(where, fmt::format("\"{}\" is above \"{}\", which no report's figures may be", json_name(self_ns),
                            json_name(total_ns)));
  if (f.min_ns > f.max_ns + written_to_ns)
    fail(where,
         fmt::format("\"{}\" is above \"{}\", which no report's figures may be", json_name(min_ns), json_name(max_ns)));
  if (f.m2_ns2 < 0)
    fail(in_moments, fmt::format("\"{}\" is negative (a sum of squares)", json_name(moments_field::m2_ns2)));
  if (f.m2_ns2 > static_cast<double>(f.timed_calls) * max_duration_ns * max_duration_ns)
    fail(in_moments, fmt::format("\"{}\" is above \"{}\" x (2^64 ns)^2, more than the durations can spread",
                                 json_name(moments_field::m2_ns2), json_name(timed_calls)));
  if (f.timed_calls > f.calls)
    fail(where, fmt::format("\"{}\" is above \"{}\"", json_name(timed_calls), json_name(calls)));
  const char* counted = f.estimated() ? "timed_calls" : "calls";
  uint64_t histogram_count = 0;
  for (const auto& [bucket, count] : f.durations.buckets)
    histogram_count = count > max_count - histogram_count ? max_count + 1 : histogram_count + count;
  if (histogram_count != f.timed_calls)
    fail(where, fmt::format("\"histogram\" counts {} calls, \"{}\" says {}", histogram_count, counted, f.timed_calls));
  if (!f.estimated()) return;
  if (!(f.call_mean_low_ns <= f.call_mean_ns && f.call_mean_ns <= f.call_mean_high_ns))
    fail(where, fmt::format("\"{}\" is not between \"{}\" and \"{}\"", json_name(mean_ns), json_name(mean_ns_low),
                            json_name(mean_ns_high)));
  // The interval's low end may be below zero (a mean near zero, a wide interval).
  if (f.call_mean_low_ns < -max_duration_ns)
    fail(where, fmt::format("\"{}\" is below -2^64 ns, more than a clock counts", json_name(mean_ns_low)));
  time_in_range(where, json_name(mean_ns), f.call_mean_ns);
  time_in_range(where, json_name(mean_ns_high), f.call_mean_high_ns);
}

void check_report_ranges(const report& r) {
  for (size_t i = 0; i < r.functions.size(); ++i)
    check_function_ranges(r.functions[i], r.path, fmt::format("functions[{}]", i));
  check_sections(r.document, r.path);
}

}  // namespace perf::perf_report
