#include "startup.hpp"

#include <cstdio>
#include <cstdlib>

namespace perf::runtime {
namespace {

settings* make_settings() {
  auto* made = new settings{parse_config([](const char* name) { return std::getenv(name); }), {}};
  clock_choice choice = choose_clock(made->environment.clock, detect_cpu_clock_features());
  made->clock = choice.source;
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

// Runs before the program's own static constructors (priority 101; and a shared
// library's constructors run before those of the program that needs it), so the
// exit report registered here runs after the program's static destructors. This
// file is linked whenever anything is measured, so a static runtime has it too.
__attribute__((constructor(101))) static void start_runtime() {
  const settings& chosen = current_settings();
  std::atexit(write_exit_report);
  std::atexit(write_exit_ticks);
  if (chosen.environment.ticks) install_crash_dump(chosen.environment.ticklog_path);
}

void warn(const std::string& message) { std::fprintf(stderr, "perf: %s\n", message.c_str()); }

}  // namespace perf::runtime
