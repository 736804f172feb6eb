#include "core/settings.hpp"

#include <cstdlib>

#include "core/warnings.hpp"

namespace perf::runtime {
namespace {

settings* make_settings() {
  auto* made = new settings{parse_config([](const char* name) { return std::getenv(name); }), {}, 0};
  clock_choice choice = choose_clock(made->environment.clock, detect_cpu_clock_features());
  made->clock = choice.source;
  made->clock_resolution = measure_resolution(made->clock);
  for (const std::string& warning : made->environment.warnings) warn(warning);
  if (!choice.warning.empty()) warn(choice.warning);
  start_calibration(made->clock);
  return made;
}

}  // namespace

const settings& current_settings() {
  static const settings* const the_settings = make_settings();
  return *the_settings;
}

const clock_rate& current_clock_rate() {
  static const clock_rate* const rate = new clock_rate(measure_rate(current_settings().clock));
  return *rate;
}

}  // namespace perf::runtime
