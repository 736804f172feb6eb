// What heap/'s files share of the heap sampler (heap/heap_sampler.cpp): the sites
// recorded so far, copied out of its tables. Internal to heap/.
#ifndef PERF_RUNTIME_HEAP_INTERNAL_SAMPLING_HPP
#define PERF_RUNTIME_HEAP_INTERNAL_SAMPLING_HPP

#include <cstdint>
#include <vector>

#include "heap/internal/site_table.hpp"

namespace perf::runtime::heap_internal {

struct sampled_sites {
  uint64_t sample_bytes = 0;  // PERF_HEAP_SAMPLE; 0: off
  std::vector<site_record> sites;
  // Sampled allocations whose stack found the site table full: in no site.
  uint64_t samples_beyond_sites = 0;
  // Times the live set, full, was halved: each live block kept stands for 2^this
  // sampled blocks (the live estimates stay unbiased, on fewer samples).
  uint32_t live_set_thinnings = 0;
};

// The sites so far, with their estimates. Any thread, not a signal handler: it
// allocates (outside the sampler's lock), and the calling thread's allocations are
// not sampled meanwhile.
sampled_sites copy_sampled_sites();

}  // namespace perf::runtime::heap_internal

#endif  // PERF_RUNTIME_HEAP_INTERNAL_SAMPLING_HPP
