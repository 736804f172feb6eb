// heap_profile_snapshot(): the heap sampler's sites as the outputs show them, each
// stack starting at the caller of the allocation function; sites whose stacks differ
// only inside the allocation functions (malloc and operator new, a sanitizer's
// interceptor and perf's own frames) are one. The runtime's own allocations (its exit
// outputs, its registries) are no site of the program's: they are left out.
#include "heap/heap_profile.hpp"

#include <map>

#include "heap/internal/sampling.hpp"
#include "sampler/allocation_function.hpp"

namespace perf::runtime {

heap_profile heap_profile_snapshot() {
  heap_internal::sampled_sites sampled = heap_internal::copy_sampled_sites();
  heap_profile profile;
  profile.sample_bytes = sampled.sample_bytes;
  profile.samples_beyond_sites = sampled.samples_beyond_sites;
  profile.live_set_thinnings = sampled.live_set_thinnings;
  std::map<std::pair<std::vector<uintptr_t>, bool>, size_t> by_stack;
  for (const heap_internal::site_record& record : sampled.sites) {
    if (runtime_allocation(record.frames, record.depth)) continue;
    const unsigned first = allocation_function_frames(record.frames, record.depth);
    std::pair<std::vector<uintptr_t>, bool> key{{record.frames + first, record.frames + record.depth},
                                                record.truncated};
    const auto [found, added] = by_stack.emplace(key, profile.sites.size());
    if (added) {
      profile.sites.emplace_back();
      profile.sites.back().frames = std::move(key.first);
      profile.sites.back().truncated = record.truncated;
    }
    heap_site& site = profile.sites[found->second];
    site.allocated_objects += record.allocated_objects;
    site.allocated_bytes += record.allocated_bytes;
    // A live estimate summed in floating point may end a hair from zero.
    site.live_objects += record.live_samples == 0 ? 0 : record.live_objects;
    site.live_bytes += record.live_samples == 0 ? 0 : record.live_bytes;
    site.samples += record.samples;
    site.live_samples += record.live_samples;
  }
  return profile;
}

}  // namespace perf::runtime
