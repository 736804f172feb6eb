// The comparison's result as a table, CSV and JSON.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "perf/compare.hpp"
#include "report_format/escaping.hpp"
#include "report_format/text_format.hpp"

namespace perf {

namespace {

std::string format_ratio(double ratio) { return std::isinf(ratio) ? "inf" : fmt::format("{:.3f}", ratio); }

std::string format_interval(const compared& row) {
  if (row.is_reference) return "(reference)";
  return fmt::format("[{}, {}]", format_ratio(row.interval.lower), format_ratio(row.interval.upper));
}

// "0.98–1.02 (3)": the smallest and largest ratio of the processes, and their number.
std::string format_processes(const compared& row) {
  if (row.process_ratios.empty() || row.is_reference) return "";
  const auto [lowest, highest] = std::minmax_element(row.process_ratios.begin(), row.process_ratios.end());
  return fmt::format("{:.3f}-{:.3f} ({})", *lowest, *highest, row.process_ratios.size());
}

std::string stop_text(const comparison_result& result) {
  const double percent = result.precision * 100;
  return result.stop == stop_reason::precision
             ? fmt::format("every interval within ±{:g}% of its ratio", percent)
             : fmt::format("time budget spent before every interval was within ±{:g}%", percent);
}

// Code points, which is what fmt pads by: "±" is one.
std::size_t display_width(const std::string& text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

const char* stop_name(stop_reason stop) { return stop == stop_reason::precision ? "precision" : "budget"; }

// RFC 4180: quoted when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string json_number(double value) { return std::isfinite(value) ? fmt::format("{}", value) : "null"; }

}  // namespace

const compared& comparison_result::row(std::string_view name) const {
  for (const compared& row : rows)
    if (row.name == name) return row;
  throw std::out_of_range(fmt::format("perf::comparison_result: no callable named '{}'", name));
}

std::string comparison_result::table() const {
  const bool with_processes =
      std::any_of(rows.begin(), rows.end(), [](const compared& row) { return !row.process_ratios.empty(); });
  std::vector<std::vector<std::string>> cells = {
      {"name", "ratio", fmt::format("{:g}% interval", confidence * 100), "ns/call", "spread", "outlier rounds"}};
  if (with_processes) cells[0].push_back("processes");
  for (const compared& row : rows) {
    cells.push_back({row.name, format_ratio(row.ratio), format_interval(row), fmt::format("{:.2f}", row.ns_per_call),
                     fmt::format("±{:.1f}%", row.spread * 100),
                     row.is_reference ? "" : fmt::format("{}", row.outlier_rounds)});
    if (with_processes) cells.back().push_back(format_processes(row));
  }
  std::vector<std::size_t> widths(cells[0].size());
  for (const auto& line : cells)
    for (std::size_t column = 0; column < line.size(); ++column)
      widths[column] = std::max(widths[column], display_width(line[column]));
  std::string text;
  for (const auto& line : cells) {
    std::string out;
    for (std::size_t column = 0; column < line.size(); ++column) {
      // The name left-aligned, the numbers right-aligned.
      out += column == 0 ? fmt::format("{:<{}}", line[column], widths[column])
                         : fmt::format("  {:>{}}", line[column], widths[column]);
    }
    out.erase(out.find_last_not_of(' ') + 1);
    text += out + "\n";
  }
  return text + fmt::format("{}, {} per batch; stopped: {}\n", report_format::format_count_of(rounds, "round"),
                            report_format::format_count_of(batch_calls, "call"), stop_text(*this));
}

std::string comparison_result::csv() const {
  std::string text = "name,reference,ratio,lower,upper,ns_per_call,spread,outlier_rounds,rounds,batch_calls,stop\n";
  for (const compared& row : rows)
    text += fmt::format("{},{},{},{},{},{},{},{},{},{},{}\n", csv_field(row.name), row.is_reference ? 1 : 0, row.ratio,
                        row.interval.lower, row.interval.upper, row.ns_per_call, row.spread, row.outlier_rounds, rounds,
                        batch_calls, stop_name(stop));
  return text;
}

std::string comparison_result::json() const {
  std::string text =
      fmt::format(R"({{"rounds":{},"batch_calls":{},"stop":"{}","confidence":{},"precision":{},"rows":[)", rounds,
                  batch_calls, stop_name(stop), confidence, precision);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const compared& row = rows[i];
    std::string process_ratios;
    for (double ratio : row.process_ratios) {
      if (!process_ratios.empty()) process_ratios += ',';
      process_ratios += json_number(ratio);
    }
    text += fmt::format(
        R"({}{{"name":{},"reference":{},"ratio":{},"lower":{},"upper":{},"ns_per_call":{},"spread":{},"outlier_rounds":{},"process_ratios":[{}]}})",
        i == 0 ? "" : ",", report_format::json_string(row.name), row.is_reference, json_number(row.ratio),
        json_number(row.interval.lower), json_number(row.interval.upper), json_number(row.ns_per_call),
        json_number(row.spread), row.outlier_rounds, process_ratios);
  }
  return text + "]}\n";
}

std::string series_result::csv() const {
  std::string text = "name,exponent,calls,sample,ns_per_call\n";
  for (const series_point& point : points)
    text += fmt::format("{},{},{},{},{}\n", csv_field(point.name), point.exponent, point.calls, point.sample,
                        point.ns_per_call);
  return text;
}

}  // namespace perf
