// Reports made by hand for perf-report's tests, from the durations themselves, so
// that a merge of two can be checked against the report of all their durations.
#ifndef PERF_TEST_REPORT_TOOL_SAMPLE_REPORTS_HPP
#define PERF_TEST_REPORT_TOOL_SAMPLE_REPORTS_HPP

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "parsed_report.hpp"
#include "perf/detail/histogram_index.hpp"
#include "perf/report.hpp"

namespace perf::perf_report::testing {

// A functions[] row for durations given in clock ticks at `ghz`, with
// `allocations` allocations of 16 bytes per call.
inline nlohmann::json function_row(const std::string& name, const std::vector<uint64_t>& ticks, double ghz,
                                   uint64_t allocations = 0) {
  double sum = 0, m2 = 0;
  uint64_t low = UINT64_MAX, high = 0;
  std::map<unsigned, uint64_t> buckets;
  for (uint64_t t : ticks) {
    sum += static_cast<double>(t);
    low = std::min(low, t), high = std::max(high, t);
    ++buckets[detail::bucket_index(t)];
  }
  const double n = static_cast<double>(ticks.size()), mean = sum / n;
  for (uint64_t t : ticks) m2 += (static_cast<double>(t) - mean) * (static_cast<double>(t) - mean);
  nlohmann::json histogram = nlohmann::json::array();
  for (const auto& [bucket, count] : buckets) histogram.push_back({bucket, count});
  return {{"name", name},
          {"file", "/src/" + name + ".cpp"},
          {"line", 10},
          {"calls", ticks.size()},
          {"timed_calls", ticks.size()},
          {"timed_share", 1.0},
          {"total_ns", sum / ghz},
          {"self_ns", sum / ghz / 2},
          {"mean_ns", mean / ghz},
          {"mean_ns_low", mean / ghz},
          {"mean_ns_high", mean / ghz},
          {"min_ns", static_cast<double>(low) / ghz},
          {"max_ns", static_cast<double>(high) / ghz},
          {"stddev_ns", std::sqrt(m2 / n) / ghz},
          {"p50_ns", 0},
          {"p90_ns", 0},
          {"p99_ns", 0},
          {"p999_ns", 0},
          {"alloc_count", static_cast<double>(allocations)},
          {"alloc_bytes", 16.0 * static_cast<double>(allocations)},
          {"moments", {{"mean_ns", mean / ghz}, {"m2_ns2", m2 / ghz / ghz}}},
          {"alloc_total_count", allocations * ticks.size()},
          {"alloc_total_bytes", 16 * allocations * ticks.size()},
          {"histogram", histogram}};
}

// A row of a function timed on a sample of its calls (adaptive timing): `ticks` are
// the timed calls' durations, `calls` every call; total and mean estimated from them,
// the mean with its 95% interval (the finite-population correction included).
inline nlohmann::json sampled_row(const std::string& name, const std::vector<uint64_t>& ticks, uint64_t calls,
                                  double ghz) {
  nlohmann::json row = function_row(name, ticks, ghz);
  const double n = static_cast<double>(ticks.size()), mean = row["mean_ns"].get<double>();
  const double m2 = row["moments"]["m2_ns2"].get<double>(), c = static_cast<double>(calls);
  const double half = 1.959963984540054 * std::sqrt((1 - n / c) * m2 / (n - 1) / n);
  row["calls"] = calls;
  row["timed_calls"] = ticks.size();
  row["timed_share"] = std::round(n / c * 1e4) / 1e4;
  row["total_ns"] = mean * c;
  row["self_ns"] = mean * c / 2;
  row["mean_ns_low"] = mean - half;
  row["mean_ns_high"] = mean + half;
  return row;
}

inline nlohmann::json report_json(long pid, double ghz, nlohmann::json functions) {
  return {{"schema_version", json_schema_version},
          {"pid", pid},
          {"clock", {{"source", "rdtsc"}, {"ghz", ghz}, {"frequency", "calibrated"}, {"resolution_ns", 10.0}}},
          {"functions", std::move(functions)},
          {"threads",
           {{{"tid", pid + 1},
             {"name", "main"},
             {"calls", 1},
             {"exited", false},
             {"tick_events", 2},
             {"tick_dropped", 0}}}},
          {"ticklog", {{"enabled", true}, {"events", 2}, {"dropped", 0}, {"ring_events", 65536}}}};
}

inline report parsed(const nlohmann::json& j, const std::string& path = "made.json") {
  return parse_report(j.dump(), path);
}

// Durations spread over a few hundred ticks, different for each seed.
inline std::vector<uint64_t> durations(unsigned seed, size_t count, uint64_t base = 300) {
  std::vector<uint64_t> out;
  uint64_t x = seed * 2654435761u + 1;
  for (size_t i = 0; i < count; ++i) {
    x = x * 6364136223846793005u + 1442695040888963407u;
    out.push_back(base + (x >> 33) % base);
  }
  return out;
}

}  // namespace perf::perf_report::testing

#endif  // PERF_TEST_REPORT_TOOL_SAMPLE_REPORTS_HPP
