// The JSON report's schema (docs/report-format.md) as both its writer (the runtime)
// and its reader (perf-report) apply it: the version both speak, and the rule that
// marks a function probe-dominated, which perf-report applies again to merged rows.
// The figures a program may read stay in perf/report.hpp (json_schema_version,
// probe_dominated_factor); this is their one use by the binaries. The fields of a
// functions[] row are named here once: the writer (runtime/report/json.cpp) writes
// them in this order, the reader (perf-report's report_parse.cpp) looks a key up here,
// and each switches over function_field, so a field added here fails to compile
// (-Wswitch) on both sides until each says what it does with it.
#ifndef PERF_RUNTIME_REPORT_FORMAT_SCHEMA_HPP
#define PERF_RUNTIME_REPORT_FORMAT_SCHEMA_HPP

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

#include "perf/report.hpp"

namespace perf::report_format {

// The version the runtime writes and perf-report reads and writes.
constexpr int schema_version = json_schema_version;

// A function is probe-dominated when its median less what the probe left in it
// (`probe_inside_ns`: the probe's inside cost when the durations were not
// compensated, else 0) is below probe_dominated_factor probe costs (`probe_ns`): the
// median, unlike the mean, is not moved by a few long calls, so two runs agree.
bool probe_dominated(double p50_ns, double probe_inside_ns, double probe_ns);

// The runtime's calibration of a clock's rate stops when two estimates agree within
// this fraction of the rate (core/clock.cpp): two rates closer than that are one clock
// (same_clock_rate), as perf-report merges them.
constexpr double calibration_precision = 1e-4;
bool same_clock_rate(double a_ghz, double b_ghz);

// An estimated mean's 95% interval (mean_ns_low to mean_ns_high, adaptive timing) is
// this many standard errors either side of it: the normal distribution's 97.5% point.
inline constexpr double mean_interval_z = 1.959963984540054;

// A field of a functions[] row, in the order the runtime writes them. A new field is
// an enumerator here and its entry in function_fields, at the same place.
enum class function_field : size_t {
  name,
  file,
  line,
  calls,
  timed_calls,
  total_ns,
  self_ns,
  mean_ns,
  mean_ns_low,
  mean_ns_high,
  min_ns,
  max_ns,
  stddev_ns,
  p50_ns,
  p90_ns,
  p99_ns,
  p999_ns,
  alloc_count,
  alloc_bytes,
  moments,
  alloc_total_count,
  alloc_total_bytes,
  probe_dominated,
  histogram,
};

// A member of a row's "moments" object, in the order the runtime writes them.
enum class moments_field : size_t { mean_ns, m2_ns2 };

template <class Field>
struct field_name {
  Field field;
  std::string_view json;
};

// Every field with its JSON name, in function_field's order (checked below).
inline constexpr std::array<field_name<function_field>, 24> function_fields = {{
    {function_field::name, "name"},
    {function_field::file, "file"},
    {function_field::line, "line"},
    {function_field::calls, "calls"},
    {function_field::timed_calls, "timed_calls"},
    {function_field::total_ns, "total_ns"},
    {function_field::self_ns, "self_ns"},
    {function_field::mean_ns, "mean_ns"},
    {function_field::mean_ns_low, "mean_ns_low"},
    {function_field::mean_ns_high, "mean_ns_high"},
    {function_field::min_ns, "min_ns"},
    {function_field::max_ns, "max_ns"},
    {function_field::stddev_ns, "stddev_ns"},
    {function_field::p50_ns, "p50_ns"},
    {function_field::p90_ns, "p90_ns"},
    {function_field::p99_ns, "p99_ns"},
    {function_field::p999_ns, "p999_ns"},
    {function_field::alloc_count, "alloc_count"},
    {function_field::alloc_bytes, "alloc_bytes"},
    {function_field::moments, "moments"},
    {function_field::alloc_total_count, "alloc_total_count"},
    {function_field::alloc_total_bytes, "alloc_total_bytes"},
    {function_field::probe_dominated, "probe_dominated"},
    {function_field::histogram, "histogram"},
}};

inline constexpr std::array<field_name<moments_field>, 2> moments_fields = {{
    {moments_field::mean_ns, "mean_ns"},
    {moments_field::m2_ns2, "m2_ns2"},
}};

template <class Field, size_t count>
constexpr bool in_enum_order(const std::array<field_name<Field>, count>& fields) {
  for (size_t i = 0; i < count; ++i)
    if (static_cast<size_t>(fields[i].field) != i) return false;
  return true;
}
static_assert(in_enum_order(function_fields) && in_enum_order(moments_fields),
              "each field's entry sits at its enumerator's place");

constexpr std::string_view json_name(function_field field) { return function_fields[static_cast<size_t>(field)].json; }
constexpr std::string_view json_name(moments_field field) { return moments_fields[static_cast<size_t>(field)].json; }

// The field named `key`, if any.
template <class Field, size_t count>
constexpr std::optional<Field> field_named(const std::array<field_name<Field>, count>& fields, std::string_view key) {
  for (const field_name<Field>& f : fields)
    if (f.json == key) return f.field;
  return std::nullopt;
}

}  // namespace perf::report_format

#endif  // PERF_RUNTIME_REPORT_FORMAT_SCHEMA_HPP
