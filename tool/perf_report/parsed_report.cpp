#include "parsed_report.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "file_text.hpp"
#include "record_columns.hpp"
#include "report_format/function_columns.hpp"
#include "report_format/schema.hpp"

namespace perf::perf_report {

using nlohmann::json;

double function_record::stddev_ns() const {
  return timed_calls < 2 ? 0.0 : std::sqrt(m2_ns2 / static_cast<double>(timed_calls));
}

double function_record::call_mean_standard_error_ns() const {
  return (call_mean_high_ns - call_mean_low_ns) / (2 * report_format::mean_interval_z);
}

bool function_record::probe_dominates() const {
  return report_format::probe_dominated(quantile_ns(0.5), probe_inside_ns, probe_ns);
}

double function_record::quantile_ns(double q) const {
  return std::min(std::max(durations.quantile_ns(q), min_ns), max_ns);
}

double report::ghz() const { return document.at("clock").at("ghz").get<double>(); }

std::unordered_map<std::string, double> report::sample_shares() const {
  std::unordered_map<std::string, double> shares;
  const auto samples = document.find("samples");
  if (samples == document.end() || !samples->contains("measured")) return shares;
  for (const json& m : samples->at("measured")) shares[m.value("name", "")] = m.value("share", 0.0);
  return shares;
}

std::string read_whole_file(const std::string& path, size_t max_bytes) {
  return std::string(file_text(path, 0, max_bytes).text());
}

namespace {

json member_json(const function_record&, std::monostate) { return nullptr; }
template <class T>
json member_json(const function_record& f, T function_record::*member) {
  return f.*member;
}

// A column's value as the runtime writes it (report_format::function_columns): rounded
// to its decimals.
json column_json(const report_format::function_column& c, const function_record& f) {
  using report_format::json_form;
  const record_column& r = record_column_of(c.field);
  switch (c.form) {
    case json_form::moments:  // exact, for merging
      return {{json_name(report_format::moments_field::mean_ns), f.mean_ns},
              {json_name(report_format::moments_field::m2_ns2), f.m2_ns2}};
    case json_form::histogram: {
      json histogram = json::array();
      for (const auto& [bucket, count] : f.durations.buckets) histogram.push_back({bucket, count});
      return histogram;
    }
    case json_form::number: {
      const double scale = std::pow(10.0, c.decimals);
      const double value = r.derived != nullptr ? r.derived(f) : f.*std::get<double function_record::*>(r.member);
      return std::round(value * scale) / scale;
    }
    case json_form::text:
    case json_form::integer:
    case json_form::flag: return std::visit([&](auto member) { return member_json(f, member); }, r.member);
  }
  return nullptr;
}

}  // namespace

json to_json(const report& r) {
  json out = r.document;
  json functions = json::array();
  for (const function_record& f : r.functions) {
    json row = json::object();
    for (const report_format::function_column& c : report_format::function_columns)
      row[std::string(c.json)] = column_json(c, f);
    functions.push_back(std::move(row));
  }
  out["functions"] = std::move(functions);
  return out;
}

void write_file_atomically(const std::string& path, const std::string& text) {
  const std::string temporary = fmt::format("{}.tmp{}", path, getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw input_error(fmt::format("{}: cannot write: {}", path, std::strerror(errno)));
    out << text;
    out.close();
    if (!out) {
      std::remove(temporary.c_str());
      throw input_error(fmt::format("{}: cannot write", path));
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::remove(temporary.c_str());
    throw input_error(fmt::format("{}: cannot write: {}", path, std::strerror(error)));
  }
}

}  // namespace perf::perf_report
