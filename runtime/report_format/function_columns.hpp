// The columns of a function's row, in one table: for each statistic its JSON key and
// form, its text-table column, its /metrics family, how perf-report merges two rows'
// values, and how perf-report checks a read value. Every output of the row loops over
// this table: the runtime's JSON writer (append_function_json) and text table
// (exit_report/text.cpp), /metrics (export/metrics.cpp), and perf-report's reader
// (report_parse.cpp), ranges (report_ranges.cpp), merge (merge.cpp) and writer
// (parsed_report.cpp's to_json). A new statistic is an enumerator of function_field
// and its entry in function_columns, at the same place; perf-report says where its
// record keeps it (tool/perf_report/record_columns.hpp, -Wswitch), and a test checks
// that every column has its rules and round-trips (test/perf_report/columns_test.cpp).
// Header-only but for append_function_json; C++20.
#ifndef PERF_RUNTIME_REPORT_FORMAT_FUNCTION_COLUMNS_HPP
#define PERF_RUNTIME_REPORT_FORMAT_FUNCTION_COLUMNS_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "perf/report.hpp"

namespace perf::report_format {

// A column of a functions[] row, in the order the runtime writes them.
enum class function_field : size_t {
  name,
  file,
  line,
  calls,
  timed_calls,
  timed_share,
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

// How a column's value is written in JSON (and so which JSON type the reader wants).
enum class json_form {
  text,       // a string
  integer,    // a non-negative integer
  flag,       // true or false
  number,     // a number with the column's `decimals` after the point
  moments,    // {"mean_ns": exact, "m2_ns2": exact}: the timed calls' moments
  histogram,  // [[bucket, count], ...]: the nonzero buckets, ascending
};

// How perf-report merges the column of two rows of one function. `unset` is no rule:
// a column left without one fails the completeness test.
enum class merge_rule {
  unset,
  key,        // the row's identity (name, file, line): equal in both
  sum,        // added
  min,        // the smaller
  max,        // the larger
  moments,    // Chan et al.'s parallel formula over the timed calls
  estimate,   // the mean of every call: calls-weighted, standard errors combined
  histogram,  // bucket by bucket (rebinned when the clock rates differ)
  verdict,    // judged again on the merged row (probe_dominated)
  derived,    // computed from the merged row's other columns, never merged itself
};

// What perf-report checks of a read value, beyond its JSON type. `unset` is no rule.
enum class range_rule {
  unset,
  none,         // any value of its type (strings, flags)
  line,         // at most UINT32_MAX
  count,        // at most 2^53: exact as a double
  duration,     // 0 to 2^64 ns
  mean_bounds,  // the estimated mean's interval: low <= mean <= high, within +-2^64 ns
  moments,      // its mean a duration, its m2 from 0 to timed_calls x (2^64 ns)^2
  histogram,    // buckets ascending and known, counts adding up to timed_calls
  derived,      // not read: checked as JSON only
};

// Whether perf-report needs the column in a row it reads.
enum class presence {
  required,        // "has no" it: refused
  optional,        // older reports lack it
  when_estimated,  // required where timed_calls < calls; else the timed calls' mean
  derived,         // never read (recomputed from the others)
};

// A cell of the text table: how the value is shown.
enum class text_cell {
  none,      // not a column of the text table
  count,     // format_count
  duration,  // format_duration at the clock's resolution
  estimate,  // a duration, "~" in front where the row's calls were sampled
  per_call,  // format_per_call, shown only when allocations are counted
};

// The /metrics family of a column: a counter of counts or of seconds (from ns), or the
// duration histogram (its buckets, _sum and _count from the row).
enum class metric_kind { none, count, seconds, histogram };

struct function_column {
  function_field field;
  std::string_view json;
  json_form form;
  int decimals = 0;  // a number's, as written (times to 0.1 ns)
  // The value, from the runtime's row: one of the three, by form (none for moments
  // and histogram, which the writers read from the row's own members).
  std::string_view (*text)(const function_stats&) = nullptr;
  uint64_t (*count)(const function_stats&) = nullptr;
  double (*number)(const function_stats&) = nullptr;
  std::string_view heading = {};  // the text table's column heading ("" with text_cell::none)
  text_cell cell = text_cell::none;
  metric_kind metric = metric_kind::none;
  std::string_view metric_name = {};  // a counter's ends in _total
  std::string_view metric_help = {};
  bool metric_needs_allocations = false;  // served only while allocations are counted
  merge_rule merge = merge_rule::unset;
  range_rule range = range_rule::unset;
  presence read = presence::required;
};

template <class Field>
struct field_name {
  Field field;
  std::string_view json;
};

// The fraction of a row's calls that were timed (1 without calls).
constexpr double timed_share(uint64_t timed_calls, uint64_t calls) {
  return calls == 0 ? 1.0 : static_cast<double>(timed_calls) / static_cast<double>(calls);
}

// Every column, in function_field's order (checked below).
inline constexpr std::array<function_column, 25> function_columns = {{
    {.field = function_field::name,
     .json = "name",
     .form = json_form::text,
     .text = [](const function_stats& f) { return std::string_view(f.name); },
     .merge = merge_rule::key,
     .range = range_rule::none},
    {.field = function_field::file,
     .json = "file",
     .form = json_form::text,
     .text = [](const function_stats& f) { return std::string_view(f.file); },
     .merge = merge_rule::key,
     .range = range_rule::none},
    {.field = function_field::line,
     .json = "line",
     .form = json_form::integer,
     .count = [](const function_stats& f) { return uint64_t{f.line}; },
     .merge = merge_rule::key,
     .range = range_rule::line},
    {.field = function_field::calls,
     .json = "calls",
     .form = json_form::integer,
     .count = [](const function_stats& f) { return f.calls; },
     .heading = "calls",
     .cell = text_cell::count,
     .metric = metric_kind::count,
     .metric_name = "perf_function_calls_total",
     .metric_help = "Finished calls of a measured function.",
     .merge = merge_rule::sum,
     .range = range_rule::count},
    {.field = function_field::timed_calls,
     .json = "timed_calls",
     .form = json_form::integer,
     .count = [](const function_stats& f) { return f.timed_calls; },
     .merge = merge_rule::sum,
     .range = range_rule::count,
     .read = presence::optional},
    {.field = function_field::timed_share,
     .json = "timed_share",
     .form = json_form::number,
     .decimals = 4,
     .number = [](const function_stats& f) { return timed_share(f.timed_calls, f.calls); },
     .merge = merge_rule::derived,
     .range = range_rule::derived,
     .read = presence::derived},
    {.field = function_field::total_ns,
     .json = "total_ns",
     .form = json_form::number,
     .decimals = 1,
     .number = [](const function_stats& f) { return f.total_ns; },
     .heading = "total",
     .cell = text_cell::estimate,
     .metric = metric_kind::seconds,
     .metric_name = "perf_function_seconds_total",
     .metric_help = "Time inside a measured function, recursion counted once.",
     .merge = merge_rule::sum,
     .range = range_rule::duration},
    {.field = function_field::self_ns,
     .json = "self_ns",
     .form = json_form::number,
     .decimals = 1,
     .number = [](const function_stats& f) { return f.self_ns; },
     .heading = "self",
     .cell = text_cell::estimate,
     .metric = metric_kind::seconds,
     .metric_name = "perf_function_self_seconds_total",
     .metric_help = "Time inside a measured function but not in measured callees.",
     .merge = merge_rule::sum,
     .range = range_rule::duration},
    {.field = function_field::mean_ns,
     .json = "mean_ns",
     .form = json_form::number,
     .decimals = 1,
     .number = [](const function_stats& f) { return f.mean_ns; },
     .heading = "mean",
     .cell = text_cell::estimate,
     .merge = merge_rule::estimate,
     .range = range_rule::mean_bounds,
     .read = presence::when_estimated},
    {.field = function_field::mean_ns_low,
     .json = "mean_ns_low",
     .form = json_form::number,
     .decimals = 1,
     .number = [](const function_stats& f) { return f.mean_ns_low; },
     .merge = merge_rule::estimate,
     .range = range_rule::mean_bounds,
     .read = presence::when_estimated},
    {.field = function_field::mean_ns_high,
     .json = "mean_ns_high",
     .form = json_form::number,
     .decimals = 1,
     .number = [](const function_stats& f) { return f.mean_ns_high; },
     .merge = merge_rule::estimate,
     .range = range_rule::mean_bounds,
     .read = presence::when_estimated},
    {.field = function_field::min_ns,
     .json = "min_ns",
     .form = json_form::number,
     .decimals = 1,
     .number = [](const function_stats& f) { return f.min_ns; },
     .heading = "min",
     .cell = text_cell::duration,
     .merge = merge_rule::min,
     .range = range_rule::duration},
    {.field = function_field::max_ns,
     .json = "max_ns",
     .form = json_form::number,
     .decimals = 1,
     .number = [](const function_stats& f) { return f.max_ns; },
     .heading = "max",
     .cell = text_cell::duration,
     .merge = merge_rule::max,
     .range = range_rule::duration},
    {.field = function_field::stddev_ns,
     .json = "stddev_ns",
     .form = json_form::number,
     .decimals = 1,
     .number = [](const function_stats& f) { return f.stddev_ns; },
     .heading = "stddev",
     .cell = text_cell::duration,
     .merge = merge_rule::derived,
     .range = range_rule::derived,
     .read = presence::derived},
    {.field = function_field::p50_ns,
     .json = "p50_ns",
     .form = json_form::number,
     .decimals = 1,
     .number = [](const function_stats& f) { return f.p50_ns; },
     .heading = "p50",
     .cell = text_cell::duration,
     .merge = merge_rule::derived,
     .range = range_rule::derived,
     .read = presence::derived},
    {.field = function_field::p90_ns,
     .json = "p90_ns",
     .form = json_form::number,
     .decimals = 1,
     .number = [](const function_stats& f) { return f.p90_ns; },
     .merge = merge_rule::derived,
     .range = range_rule::derived,
     .read = presence::derived},
    {.field = function_field::p99_ns,
     .json = "p99_ns",
     .form = json_form::number,
     .decimals = 1,
     .number = [](const function_stats& f) { return f.p99_ns; },
     .heading = "p99",
     .cell = text_cell::duration,
     .merge = merge_rule::derived,
     .range = range_rule::derived,
     .read = presence::derived},
    {.field = function_field::p999_ns,
     .json = "p999_ns",
     .form = json_form::number,
     .decimals = 1,
     .number = [](const function_stats& f) { return f.p999_ns; },
     .merge = merge_rule::derived,
     .range = range_rule::derived,
     .read = presence::derived},
    {.field = function_field::alloc_count,
     .json = "alloc_count",
     .form = json_form::number,
     .decimals = 2,
     .number = [](const function_stats& f) { return f.alloc_count; },
     .heading = "allocs/call",
     .cell = text_cell::per_call,
     .merge = merge_rule::derived,
     .range = range_rule::derived,
     .read = presence::derived},
    {.field = function_field::alloc_bytes,
     .json = "alloc_bytes",
     .form = json_form::number,
     .decimals = 1,
     .number = [](const function_stats& f) { return f.alloc_bytes; },
     .heading = "bytes/call",
     .cell = text_cell::per_call,
     .merge = merge_rule::derived,
     .range = range_rule::derived,
     .read = presence::derived},
    {.field = function_field::moments,
     .json = "moments",
     .form = json_form::moments,
     .merge = merge_rule::moments,
     .range = range_rule::moments},
    {.field = function_field::alloc_total_count,
     .json = "alloc_total_count",
     .form = json_form::integer,
     .count = [](const function_stats& f) { return f.alloc_total_count; },
     .metric = metric_kind::count,
     .metric_name = "perf_function_allocations_total",
     .metric_help = "Heap allocations during a measured function, callees included.",
     .metric_needs_allocations = true,
     .merge = merge_rule::sum,
     .range = range_rule::count},
    {.field = function_field::alloc_total_bytes,
     .json = "alloc_total_bytes",
     .form = json_form::integer,
     .count = [](const function_stats& f) { return f.alloc_total_bytes; },
     .metric = metric_kind::count,
     .metric_name = "perf_function_allocated_bytes_total",
     .metric_help = "Bytes allocated during a measured function, callees included.",
     .metric_needs_allocations = true,
     .merge = merge_rule::sum,
     .range = range_rule::count},
    {.field = function_field::probe_dominated,
     .json = "probe_dominated",
     .form = json_form::flag,
     .count = [](const function_stats& f) { return uint64_t{f.probe_dominated}; },
     .merge = merge_rule::verdict,
     .range = range_rule::none,
     .read = presence::optional},
    {.field = function_field::histogram,
     .json = "histogram",
     .form = json_form::histogram,
     .metric = metric_kind::histogram,
     .metric_name = "perf_function_duration_seconds",
     .metric_help = "Duration of each call of a measured function.",
     .merge = merge_rule::histogram,
     .range = range_rule::histogram},
}};

inline constexpr std::array<field_name<moments_field>, 2> moments_fields = {{
    {moments_field::mean_ns, "mean_ns"},
    {moments_field::m2_ns2, "m2_ns2"},
}};

template <class Columns>
constexpr bool in_enum_order(const Columns& columns) {
  for (size_t i = 0; i < columns.size(); ++i)
    if (static_cast<size_t>(columns[i].field) != i) return false;
  return true;
}
static_assert(in_enum_order(function_columns) && in_enum_order(moments_fields),
              "each column's entry sits at its enumerator's place");

constexpr const function_column& column(function_field field) { return function_columns[static_cast<size_t>(field)]; }
constexpr std::string_view json_name(function_field field) { return column(field).json; }
constexpr std::string_view json_name(moments_field field) { return moments_fields[static_cast<size_t>(field)].json; }

// The column or member named `key`, if any.
template <class Columns>
constexpr auto field_named(const Columns& columns, std::string_view key) -> std::optional<decltype(columns[0].field)> {
  for (const auto& c : columns)
    if (c.json == key) return c.field;
  return std::nullopt;
}

// The JSON type a reader wants of a column written in `form` ("a string", ...), for
// its messages.
constexpr std::string_view json_type_name(json_form form) {
  switch (form) {
    case json_form::text: return "a string";
    case json_form::integer: return "a non-negative integer";
    case json_form::flag: return "a boolean";
    case json_form::number: return "a number";
    case json_form::moments: return "an object";
    case json_form::histogram: return "an array";
  }
  return "";
}

// `f` as one functions[] element: every column in its order, `{"name": ..., ...}`.
void append_function_json(std::string& out, const function_stats& f);

}  // namespace perf::report_format

#endif  // PERF_RUNTIME_REPORT_FORMAT_FUNCTION_COLUMNS_HPP
