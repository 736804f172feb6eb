// Samples with their times, for the tick log's captures: the sampler keeps its
// newest samples and registers how to read them here, so that the captures (a
// component of the sampler's layer, which includes none of it) read them through
// core.
#ifndef PERF_RUNTIME_CORE_TIMED_SAMPLES_HPP
#define PERF_RUNTIME_CORE_TIMED_SAMPLES_HPP

#include <cstdint>
#include <string>
#include <vector>

namespace perf::runtime {

// One sample: when (a value of the runtime's clock, as the tick log's events), of
// which thread, and the functions on its stack, innermost first (inlined ones
// included), as the profile names them.
struct timed_sample {
  uint64_t time = 0;
  uint32_t tid = 0;
  std::vector<std::string> functions;
};

// Who keeps samples with their times (the sampler).
struct timed_samples_source {
  // The samples taken from clock value `from` to `to` (both included) that the source
  // still holds, oldest first.
  std::vector<timed_sample> (*read)(uint64_t from, uint64_t to);
  // Readies what `read` needs to be quick (the symbolizer), in the background: returns
  // at once.
  void (*prepare)();
};

// Makes `source` the one read_timed_samples asks. Call it only from a
// PERF_RUNTIME_ON_START function (core/startup.hpp).
void set_timed_samples_source(const timed_samples_source& source);

// The samples from `from` to `to`; none without a source (the sampler is off). Any
// thread; allocates.
std::vector<timed_sample> read_timed_samples(uint64_t from, uint64_t to);

// Has the source ready itself in the background for reads to come (once captures are
// armed); nothing without a source.
void prepare_timed_samples();

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_TIMED_SAMPLES_HPP
