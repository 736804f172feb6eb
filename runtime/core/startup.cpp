#include "core/startup.hpp"

#include <cstdlib>
#include <vector>

#include "core/registrations.hpp"
#include "core/settings.hpp"
#include "core/uncounted_allocations.hpp"

namespace perf::runtime {
namespace {

struct exit_output {
  void (*write)();
};

struct exit_quiet {
  void (*quiet)();
};

void write_exit_outputs() {
  for (const exit_quiet& component : registered<exit_quiet>()) component.quiet();
  for (const exit_output& output : registered<exit_output>()) output.write();
}

// Settles the configuration (and its warnings) before the program runs. All
// runtime globals are never destroyed, so the exit outputs find them intact.
PERF_RUNTIME_ON_START(start_runtime) {
  current_settings();
  std::atexit(write_exit_outputs);
}

// After every PERF_RUNTIME_ON_START function (priority 101): neither their allocations
// on the main thread nor those of the libraries initialised before the runtime are
// the program's.
PERF_RUNTIME_START_DONE(end_of_runtime_start) { forget_counted_allocations(); }

}  // namespace

void add_exit_output(void (*write)()) { registered<exit_output>().push_back({write}); }

void add_exit_quiet(void (*quiet)()) { registered<exit_quiet>().push_back({quiet}); }

}  // namespace perf::runtime
