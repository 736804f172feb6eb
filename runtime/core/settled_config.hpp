// A component's PERF_* variables, parsed once from the process's environment: each
// component parses its own (ticklog/ticklog_config, sampler/sample_config,
// exit_report/report_destination, export/listen_config) into a struct with a `warnings`
// member, and reads it through settled_config.
#ifndef PERF_RUNTIME_CORE_SETTLED_CONFIG_HPP
#define PERF_RUNTIME_CORE_SETTLED_CONFIG_HPP

#include <cstdlib>
#include <functional>
#include <string>

#include "core/warnings.hpp"

namespace perf::runtime {

// What `Parse` makes of the environment, on first use: its warnings printed then
// (one "perf: ..." line each), kept for the process's life and never destroyed, so
// exit hooks may read it. Any thread; the first use is thread-safe (a function-local
// static). A component settles it at start-up (PERF_RUNTIME_ON_START) so that its
// warnings come with core's.
template <class Config, Config (*Parse)(const std::function<const char*(const char*)>&)>
const Config& settled_config() {
  static const Config* const settled = [] {
    auto* made = new Config(Parse([](const char* name) { return std::getenv(name); }));
    for (const std::string& warning : made->warnings) warn(warning);
    return made;
  }();
  return *settled;
}

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_SETTLED_CONFIG_HPP
