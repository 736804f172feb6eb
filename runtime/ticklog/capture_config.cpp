#include "ticklog/capture_config.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <string_view>

#include "core/settled_config.hpp"
#include "core/startup.hpp"

namespace perf::runtime {
namespace {

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

// DURATION: a decimal number of ns, us, ms or s, in nanoseconds; nothing if it is not one.
bool parse_duration(std::string_view text, uint64_t& ns) {
  static constexpr std::pair<std::string_view, double> units[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
  for (const auto& [unit, scale] : units) {
    if (!text.ends_with(unit)) continue;
    const std::string_view number = trimmed(text.substr(0, text.size() - unit.size()));
    if (number.empty() || number.find_first_not_of("0123456789.") != std::string_view::npos) return false;
    double value = 0;
    const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (error != std::errc() || end != number.data() + number.size() || !(value * scale >= 1) || value * scale > 1e18)
      return false;
    ns = static_cast<uint64_t>(std::llround(value * scale));
    return true;
  }
  return false;
}

// pQ, Q a decimal number from 50 to 99.999, as a fraction; nothing if it is not one.
bool parse_quantile(std::string_view text, double& quantile) {
  if (!text.starts_with('p')) return false;
  const std::string_view number = text.substr(1);
  if (number.empty() || number.find_first_not_of("0123456789.") != std::string_view::npos) return false;
  double percent = 0;
  const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), percent);
  if (error != std::errc() || end != number.data() + number.size() || !(percent >= 50) || percent > 99.999)
    return false;
  quantile = percent / 100;
  return true;
}

// FUNCTION>DURATION or FUNCTION>pQ (the last '>': a name may hold one, a duration or
// a quantile never does).
bool parse_rule(std::string_view text, capture_rule& rule) {
  const size_t at = text.rfind('>');
  if (at == std::string_view::npos) return false;
  const std::string_view function = trimmed(text.substr(0, at));
  const std::string_view limit = trimmed(text.substr(at + 1));
  if (function.empty() || !(parse_duration(limit, rule.threshold_ns) || parse_quantile(limit, rule.quantile)))
    return false;
  rule.function = function;
  return true;
}

// A count from `least` to `most`, else the default with a warning.
uint64_t parse_count(const char* variable, std::string_view value, uint64_t least, uint64_t most, uint64_t fallback,
                     const char* unit, std::vector<std::string>& warnings) {
  uint64_t count = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), count);
  if (error == std::errc() && end == value.data() + value.size() && count >= least && count <= most) return count;
  warnings.push_back(fmt::format("{}='{}' is not a count of {} from {} to {}; using {}", variable, value, unit, least,
                                 most, fallback));
  return fallback;
}

PERF_RUNTIME_ON_START(settle_capture_config) { current_capture_config(); }

}  // namespace

std::vector<capture_rule> parse_capture_rules(const std::string& value, std::vector<std::string>& warnings) {
  std::vector<capture_rule> rules;
  const auto add = [&](std::string_view text) {
    text = trimmed(text);
    capture_rule rule;
    if (parse_rule(text, rule)) rules.push_back(rule);
    else if (!text.empty())
      warnings.push_back(fmt::format(
          "PERF_CAPTURE: '{}' is not a rule FUNCTION>DURATION or FUNCTION>pQ (e.g. logs::parse_line>2ms; units "
          "ns, us, ms, s; or logs::parse_line>p99.9: Q from 50 to 99.999); it is left out",
          text));
  };
  // Rules end at commas outside brackets: a template's arguments keep theirs.
  size_t start = 0, depth = 0;
  for (size_t at = 0; at < value.size(); ++at) {
    const char c = value[at];
    if (c == '<' || c == '(') ++depth;
    else if ((c == '>' || c == ')') && depth > 0) --depth;
    else if (c == ',' && depth == 0) {
      add(std::string_view(value).substr(start, at - start));
      start = at + 1;
    }
  }
  add(std::string_view(value).substr(start));
  return rules;
}

capture_config parse_capture_config(const std::function<const char*(const char*)>& getenv_fn) {
  capture_config result;
  if (const char* rules = getenv_fn("PERF_CAPTURE"); rules != nullptr)
    result.rules = parse_capture_rules(rules, result.warnings);
  if (const char* window = getenv_fn("PERF_CAPTURE_WINDOW"); window != nullptr && *window != '\0')
    result.window_ms = parse_count("PERF_CAPTURE_WINDOW", window, 1, max_capture_window_ms, default_capture_window_ms,
                                   "milliseconds", result.warnings);
  if (const char* rate = getenv_fn("PERF_CAPTURE_RATE"); rate != nullptr && *rate != '\0')
    result.per_minute = parse_count("PERF_CAPTURE_RATE", rate, 1, max_capture_rate, default_capture_rate,
                                    "captures a minute", result.warnings);
  if (const char* directory = getenv_fn("PERF_CAPTURE_DIR"); directory != nullptr && *directory != '\0')
    result.directory = directory;
  return result;
}

const capture_config& current_capture_config() { return settled_config<capture_config, parse_capture_config>(); }

}  // namespace perf::runtime
