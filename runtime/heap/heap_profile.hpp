// The sampled heap profile (PERF_HEAP_SAMPLE): the allocating stacks that the samples
// found, each with its estimated allocations since start-up and its estimated live
// blocks now. The exit report's "allocation sites" section, the JSON report's
// allocation_sites[], PERF_HEAP_PROFILE and the endpoint's /debug/pprof/heap and
// /debug/pprof/allocs all show this one snapshot.
#ifndef PERF_RUNTIME_HEAP_HEAP_PROFILE_HPP
#define PERF_RUNTIME_HEAP_HEAP_PROFILE_HPP

#include <cmath>
#include <cstdint>
#include <vector>

namespace perf::runtime {

// One distinct allocating stack and what the samples taken there estimate.
struct heap_site {
  // Return addresses, innermost first, from the caller of the allocation function
  // (operator new, malloc...) outwards.
  std::vector<uintptr_t> frames;
  bool truncated = false;  // the stack was deeper than `frames` holds
  // Unbiased estimates (see docs/allocations.md, "Sampling"): allocations made here
  // since start-up, and the blocks made here that are still live. Bytes are the sizes
  // the code requested.
  double allocated_objects = 0;
  double allocated_bytes = 0;
  double live_objects = 0;
  double live_bytes = 0;
  uint64_t samples = 0;       // sampled allocations behind allocated_*
  uint64_t live_samples = 0;  // of them, not freed yet: behind live_*
};

struct heap_profile {
  uint64_t sample_bytes = 0;  // mean bytes between samples (PERF_HEAP_SAMPLE); 0: off, and no sites
  std::vector<heap_site> sites;
  // What the sampler's bounded tables did (docs/allocations.md, "Sampling"): sampled
  // allocations whose new stack found the site table full (in no site), and the times
  // the live set, full, was halved (each live block kept then stands for 2^this
  // sampled blocks: the live estimates stay unbiased, on fewer samples).
  uint64_t samples_beyond_sites = 0;
  uint32_t live_set_thinnings = 0;
};

// The profile so far. Any thread, but not a signal handler: it allocates (and its
// own allocations are not sampled).
heap_profile heap_profile_snapshot();

// Why a profile whose sample_bytes is 0 has nothing to show: the /debug/pprof heap
// endpoints' answer and PERF_HEAP_PROFILE's warning say it in these words.
inline constexpr char heap_sampling_off[] = "heap sampling is off (PERF_HEAP_SAMPLE is 0 or unset)";

// An estimated figure of a heap_site as a whole count: rounded, and 0 where the
// estimate is not above 0.
inline uint64_t whole_count(double estimate) {
  return estimate > 0 ? static_cast<uint64_t>(std::llround(estimate)) : 0;
}

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_HEAP_HEAP_PROFILE_HPP
