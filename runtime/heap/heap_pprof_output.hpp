// PERF_HEAP_PROFILE: the sampled heap profile written when the program exits, as
// pprof's profile.proto, gzipped (heap/heap_pprof.hpp), to a path where %p is the pid.
#ifndef PERF_RUNTIME_HEAP_HEAP_PPROF_OUTPUT_HPP
#define PERF_RUNTIME_HEAP_HEAP_PPROF_OUTPUT_HPP

#include <functional>
#include <string>
#include <vector>

namespace perf::runtime {

struct heap_pprof_output_config {
  std::string path;  // PERF_HEAP_PROFILE, %p not yet expanded; empty: none
  std::vector<std::string> warnings;
};

// Reads PERF_HEAP_PROFILE through `getenv_fn` (a null result means unset).
heap_pprof_output_config parse_heap_pprof_output_config(const std::function<const char*(const char*)>& getenv_fn);

// Writes the heap profile as it is now to `path` (%p expanded), atomically as every
// output file (core/output_file.hpp), in the /debug/pprof/heap view (inuse_space
// shown first). With heap sampling off (PERF_HEAP_SAMPLE 0 or unset) writes nothing:
// an empty profile would read as a program that allocates nothing. Either failure is
// one "perf: cannot write the heap profile to '<path>': <why>" line; returns whether
// the file was written. Any thread, not a signal handler.
bool write_heap_profile(const std::string& path);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_HEAP_HEAP_PPROF_OUTPUT_HPP
