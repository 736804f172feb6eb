// The tail-latency capture's PERF_* variables: PERF_CAPTURE (its rules),
// PERF_CAPTURE_WINDOW, PERF_CAPTURE_RATE and PERF_CAPTURE_DIR.
#ifndef PERF_RUNTIME_TICKLOG_CAPTURE_CONFIG_HPP
#define PERF_RUNTIME_TICKLOG_CAPTURE_CONFIG_HPP

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace perf::runtime {

constexpr uint64_t default_capture_window_ms = 10;
constexpr uint64_t max_capture_window_ms = 10000;
constexpr uint64_t default_capture_rate = 6;  // captures per minute
constexpr uint64_t max_capture_rate = 600;

// FUNCTION>DURATION: a call of the measured function named FUNCTION (as the report
// names it) that lasts longer than DURATION is captured; FUNCTION>pQ: a call beyond
// the quantile Q of the function's calls before it (tail_threshold.hpp).
struct capture_rule {
  std::string function;
  uint64_t threshold_ns = 0;  // FUNCTION>DURATION's; 0 for FUNCTION>pQ
  double quantile = 0;        // FUNCTION>pQ's Q / 100, from 0.5 to 0.99999; 0 for FUNCTION>DURATION
};

struct capture_config {
  std::vector<capture_rule> rules;                 // PERF_CAPTURE: none, no capture
  uint64_t window_ms = default_capture_window_ms;  // PERF_CAPTURE_WINDOW
  uint64_t per_minute = default_capture_rate;      // PERF_CAPTURE_RATE
  std::string directory = ".";                     // PERF_CAPTURE_DIR
  // One line per value that could not be used, naming the variable.
  std::vector<std::string> warnings;
};

// PERF_CAPTURE's rules, comma-separated ("logs::parse_line>2ms,flush>p99.9"); a
// duration is a decimal number and one of ns, us, ms, s; a quantile p and a decimal
// number from 50 to 99.999. A comma inside brackets (a
// template's arguments, a parameter list) stays in the function's name.
// A rule that is neither FUNCTION>DURATION nor FUNCTION>pQ is left out with a warning
// naming it.
std::vector<capture_rule> parse_capture_rules(const std::string& value, std::vector<std::string>& warnings);

// Reads the capture's variables through `getenv_fn` (a null result means unset).
capture_config parse_capture_config(const std::function<const char*(const char*)>& getenv_fn);

// Parsed on first use (the tick log's start-up makes that first use), its warnings
// on stderr once. Thread-safe.
const capture_config& current_capture_config();

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_TICKLOG_CAPTURE_CONFIG_HPP
