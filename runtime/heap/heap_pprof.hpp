// The sampled heap profile as pprof's profile.proto, as Go's runtime/pprof writes its
// heap and allocs profiles: what PERF_HEAP_PROFILE writes at exit and the live
// endpoint serves as /debug/pprof/heap and /debug/pprof/allocs.
#ifndef PERF_RUNTIME_HEAP_HEAP_PPROF_HPP
#define PERF_RUNTIME_HEAP_HEAP_PPROF_HPP

#include <string>

#include "heap/heap_profile.hpp"

namespace perf::runtime {

// Go's two views of one heap profile, which differ only in the sample type pprof shows
// unless told otherwise (-sample_index): the live bytes (`heap`: inuse_space) or the
// bytes allocated since start-up (`allocs`: alloc_space).
enum class heap_pprof_view { heap, allocs };

// The profile.proto message, uncompressed: sample types alloc_objects/count,
// alloc_space/bytes, inuse_objects/count and inuse_space/bytes (Go's order), one sample
// per site with its estimates rounded to whole numbers and a "bytes" label (the mean
// size of its allocations, as Go's), its frames symbolized as the CPU profile's
// (sampler/profile.hpp: inlined functions, mappings with build ids); period type
// space/bytes, period `p.sample_bytes`; a comment line (pprof prints it above its
// reports) for each count of samples the sampler's tables had no room for. Any thread;
// allocates.
std::string encode_heap_pprof(const heap_profile& p, heap_pprof_view view);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_HEAP_HEAP_PPROF_HPP
