#include "process_floor.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "parsed_report.hpp"

namespace perf::perf_report {
namespace {

constexpr std::array<metric, 4> timing = {metric::mean, metric::p50, metric::p99, metric::self};

}  // namespace

process_floor::process_floor() {
  for (metric m : timing) figures[static_cast<size_t>(m)] = default_process_floor;
}

double process_floor::of(const std::string& function, metric m) const {
  const auto found = functions.find(function);
  return found != functions.end() ? found->second[static_cast<size_t>(m)] : figures[static_cast<size_t>(m)];
}

void add_spread(process_floor& floor, const std::string& function, const figure_values& values) {
  if (floor.source == "the default") floor.figures = {}, floor.source = "measured";
  auto& own = floor.functions[function];
  for (metric m : timing) {
    const std::vector<double>& v = values[static_cast<size_t>(m)];
    if (v.size() < 2) continue;
    const auto [low, high] = std::minmax_element(v.begin(), v.end());
    if (!(*low > 0)) continue;
    const double spread = *high / *low - 1;
    const size_t i = static_cast<size_t>(m);
    own[i] = std::max(own[i], spread);
    floor.figures[i] = std::max(floor.figures[i], spread);
  }
}

nlohmann::json to_json(const process_floor& floor) {
  auto figures = [](const std::array<double, metric_count>& f) {
    nlohmann::json j = nlohmann::json::object();
    for (metric m : timing) j[metric_name(m)] = f[static_cast<size_t>(m)];
    return j;
  };
  nlohmann::json functions = nlohmann::json::object();
  for (const auto& [name, f] : floor.functions) functions[name] = figures(f);
  return {{"perf_report_between_process_floor", 1}, {"figures", figures(floor.figures)}, {"functions", functions}};
}

process_floor read_process_floor(const std::string& path, size_t max_bytes) {
  const std::string text = read_whole_file(path, max_bytes);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception&) { throw input_error(fmt::format("{}: not JSON", path)); }
  if (!j.is_object() || j.value("perf_report_between_process_floor", 0) != 1)
    throw input_error(fmt::format("{}: not a between-process floor (perf-report ab --save-noise writes one)", path));
  auto figures = [&](const nlohmann::json& f, const std::string& where) {
    std::array<double, metric_count> out{};
    for (metric m : timing) {
      const auto value = f.find(metric_name(m));
      if (value == f.end() || !value->is_number() || !(value->get<double>() >= 0) ||
          !std::isfinite(value->get<double>()))
        throw input_error(fmt::format("{}: {}.{} is not a non-negative number", path, where, metric_name(m)));
      out[static_cast<size_t>(m)] = value->get<double>();
    }
    return out;
  };
  process_floor floor;
  floor.source = path;
  if (!j.contains("figures") || !j["figures"].is_object()) throw input_error(fmt::format("{}: no \"figures\"", path));
  floor.figures = figures(j["figures"], "figures");
  if (j.contains("functions") && j["functions"].is_object())
    for (const auto& [name, f] : j["functions"].items()) {
      if (!f.is_object()) throw input_error(fmt::format("{}: functions.{} is not an object", path, name));
      floor.functions[name] = figures(f, "functions." + name);
    }
  return floor;
}

}  // namespace perf::perf_report
