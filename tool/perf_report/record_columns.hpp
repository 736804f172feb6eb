// Where perf-report's function_record keeps each column of the runtime's row
// (report_format::function_columns): a member the reader fills, the merge combines by
// the column's rule and to_json writes; or, for a derived column, how to_json computes
// it from the record. One entry per column, in the table's order: a column the runtime
// adds fails to compile here (the sizes differ) until perf-report says where it goes.
#ifndef PERF_REPORT_TOOL_RECORD_COLUMNS_HPP
#define PERF_REPORT_TOOL_RECORD_COLUMNS_HPP

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <variant>

#include "parsed_report.hpp"
#include "report_format/function_columns.hpp"

namespace perf::perf_report {

// A member of the record, by type; none for a derived column and for the moments
// and the histogram, which the reader, merge and to_json handle as wholes.
using record_member = std::variant<std::monostate, std::string function_record::*, unsigned function_record::*,
                                   uint64_t function_record::*, double function_record::*, bool function_record::*>;

struct record_column {
  report_format::function_field field;
  record_member member;
  double (*derived)(const function_record&) = nullptr;  // a derived column's value
};

namespace record_columns_detail {
// Per call, over every call (a row without calls: 0).
inline double per_call(uint64_t total, uint64_t calls) {
  return static_cast<double>(total) / static_cast<double>(std::max<uint64_t>(calls, 1));
}
}  // namespace record_columns_detail

inline constexpr std::array<record_column, report_format::function_columns.size()> record_columns = {{
    {report_format::function_field::name, &function_record::name},
    {report_format::function_field::file, &function_record::file},
    {report_format::function_field::line, &function_record::line},
    {report_format::function_field::calls, &function_record::calls},
    {report_format::function_field::timed_calls, &function_record::timed_calls},
    {report_format::function_field::timed_share,
     {},
     [](const function_record& f) { return report_format::timed_share(f.timed_calls, f.calls); }},
    {report_format::function_field::total_ns, &function_record::total_ns},
    {report_format::function_field::self_ns, &function_record::self_ns},
    {report_format::function_field::mean_ns, &function_record::call_mean_ns},
    {report_format::function_field::mean_ns_low, &function_record::call_mean_low_ns},
    {report_format::function_field::mean_ns_high, &function_record::call_mean_high_ns},
    {report_format::function_field::min_ns, &function_record::min_ns},
    {report_format::function_field::max_ns, &function_record::max_ns},
    {report_format::function_field::stddev_ns, {}, [](const function_record& f) { return f.stddev_ns(); }},
    {report_format::function_field::p50_ns, {}, [](const function_record& f) { return f.quantile_ns(0.5); }},
    {report_format::function_field::p90_ns, {}, [](const function_record& f) { return f.quantile_ns(0.9); }},
    {report_format::function_field::p99_ns, {}, [](const function_record& f) { return f.quantile_ns(0.99); }},
    {report_format::function_field::p999_ns, {}, [](const function_record& f) { return f.quantile_ns(0.999); }},
    {report_format::function_field::alloc_count,
     {},
     [](const function_record& f) { return record_columns_detail::per_call(f.alloc_total_count, f.calls); }},
    {report_format::function_field::alloc_bytes,
     {},
     [](const function_record& f) { return record_columns_detail::per_call(f.alloc_total_bytes, f.calls); }},
    {report_format::function_field::moments, {}},
    {report_format::function_field::alloc_total_count, &function_record::alloc_total_count},
    {report_format::function_field::alloc_total_bytes, &function_record::alloc_total_bytes},
    {report_format::function_field::probe_dominated, &function_record::probe_dominated},
    {report_format::function_field::histogram, {}},
}};

static_assert(report_format::in_enum_order(record_columns), "each entry sits at its column's place");

constexpr const record_column& record_column_of(report_format::function_field field) {
  return record_columns[static_cast<size_t>(field)];
}

}  // namespace perf::perf_report

#endif  // PERF_REPORT_TOOL_RECORD_COLUMNS_HPP
