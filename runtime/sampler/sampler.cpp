// Starting the sampler when the runtime starts, and its profile when the program exits.
#include "sampler/internal/sampling.hpp"

#include <cstdio>

#include "core/settled_config.hpp"
#include "core/startup.hpp"
#include "core/timed_samples.hpp"
#include "core/uncounted_allocations.hpp"
#include "core/warnings.hpp"
#include "perf/sampler.hpp"
#include "sampler/recent_samples.hpp"

namespace perf::runtime {
namespace {

// Distinct stacks the table holds: enough for programs with thousands of hot paths.
constexpr unsigned stack_slots = 1u << 16;

sample_table* table = nullptr;  // set once by start_sampling
unsigned started_hz = 0;

void write_profile_at_exit() {
  const std::string& path = current_sample_config().profile_path;
  if (!path.empty()) perf::write_profile(path);
}

PERF_RUNTIME_ON_START(start_sampler) {
  // On the program's main thread, whose allocation counters must not show it.
  const uncounted_allocations runtime_work;
  const sample_config& config = current_sample_config();
  if (config.hz == 0) return;
  const std::string problem = start_sampling(config);
  if (!problem.empty()) {
    warn("sampling is off: " + problem);
    return;
  }
  add_exit_quiet(stop_sampling);
  add_exit_output(write_profile_at_exit);
  set_timed_samples_source({recent_samples_between, prepare_symbols_in_background});
}

}  // namespace

const sample_config& current_sample_config() { return settled_config<sample_config, parse_sample_config>(); }

std::string start_sampling(const sample_config& config) {
  if (table != nullptr) return "it was started already";
  try {
    table = new sample_table(stack_slots, config.depth);
  } catch (const std::bad_alloc&) { return "no memory for the sample table"; }
  if (const std::string problem = prepare_unwinder(); !problem.empty())
    warn("the sampler's stacks end at the sampled instruction: " + problem);
  const int signal = install_sample_handler(table, config.depth, config.signal);
  if (signal == 0) return "every signal it could use (SIGURG, SIGPROF, the real-time signals) has a handler";
  if (config.signal != 0 && signal != config.signal)
    warn("PERF_SAMPLE_SIGNAL=" + signal_name(config.signal) + " has a handler already; sampling on " +
         signal_name(signal) + " instead");
  started_hz = config.hz;
  // The hook first, then the walk: a thread started meanwhile is seen by one or both.
  install_thread_start_hook();
  configure_sources(signal, config.clock);
  resume_sampling(config.hz, config.source);
  return {};
}

void stop_sampling() noexcept { disarm_all_threads(); }

void resume_sampling(unsigned hz, sample_source source) noexcept {
  arm_new_threads(hz, source);
  arm_calling_thread();
  arm_existing_threads();
}

sample_table* sampled_stacks() noexcept { return table; }

std::string why_sampling_stopped() {
  if (!sample_signal_taken_over()) return {};
  return "the program installed its own handler for " + signal_name(sample_signal()) +
         ", the sampler's signal (PERF_SAMPLE_SIGNAL chooses another)";
}

unsigned sampling_hz() noexcept { return started_hz; }

}  // namespace perf::runtime
