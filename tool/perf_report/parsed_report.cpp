#include "parsed_report.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "file_text.hpp"
#include "report_format/schema.hpp"

namespace perf::report_tool {

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

json to_json(const report& r) {
  json out = r.document;
  json functions = json::array();
  for (const function_record& f : r.functions) {
    json histogram = json::array();
    for (const auto& [bucket, count] : f.durations.buckets) histogram.push_back({bucket, count});
    const double calls = static_cast<double>(std::max<uint64_t>(f.calls, 1));
    // The runtime's rounding: one decimal for times, two for allocations per call.
    auto tenth = [](double v) { return std::round(v * 10) / 10; };
    functions.push_back({{"name", f.name},
                         {"file", f.file},
                         {"line", f.line},
                         {"calls", f.calls},
                         {"timed_calls", f.timed_calls},
                         {"total_ns", tenth(f.total_ns)},
                         {"self_ns", tenth(f.self_ns)},
                         {"mean_ns", tenth(f.call_mean_ns)},
                         {"mean_ns_low", tenth(f.call_mean_low_ns)},
                         {"mean_ns_high", tenth(f.call_mean_high_ns)},
                         {"min_ns", tenth(f.min_ns)},
                         {"max_ns", tenth(f.max_ns)},
                         {"stddev_ns", tenth(f.stddev_ns())},
                         {"p50_ns", tenth(f.quantile_ns(0.5))},
                         {"p90_ns", tenth(f.quantile_ns(0.9))},
                         {"p99_ns", tenth(f.quantile_ns(0.99))},
                         {"p999_ns", tenth(f.quantile_ns(0.999))},
                         {"alloc_count", std::round(static_cast<double>(f.alloc_total_count) / calls * 100) / 100},
                         {"alloc_bytes", tenth(static_cast<double>(f.alloc_total_bytes) / calls)},
                         {"moments", {{"mean_ns", f.mean_ns}, {"m2_ns2", f.m2_ns2}}},
                         {"alloc_total_count", f.alloc_total_count},
                         {"alloc_total_bytes", f.alloc_total_bytes},
                         {"probe_dominated", f.probe_dominated},
                         {"histogram", std::move(histogram)}});
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

}  // namespace perf::report_tool
