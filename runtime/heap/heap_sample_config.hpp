// PERF_HEAP_SAMPLE, the heap sampler's one variable, parsed once at start-up.
#ifndef PERF_RUNTIME_HEAP_HEAP_SAMPLE_CONFIG_HPP
#define PERF_RUNTIME_HEAP_HEAP_SAMPLE_CONFIG_HPP

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace perf::runtime {

// The largest mean PERF_HEAP_SAMPLE takes: 1 TiB between samples.
constexpr uint64_t max_heap_sample_bytes = uint64_t{1} << 40;

struct heap_sample_config {
  // Mean requested bytes between sampled allocations (e.g. 524288, tcmalloc's and
  // Go's); 0: heap sampling off, the default.
  uint64_t bytes = 0;
  // One line per value that could not be used, naming the variable.
  std::vector<std::string> warnings;
};

// Reads PERF_HEAP_SAMPLE through `getenv_fn`; a null result means unset.
heap_sample_config parse_heap_sample_config(const std::function<const char*(const char*)>& getenv_fn);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_HEAP_HEAP_SAMPLE_CONFIG_HPP
