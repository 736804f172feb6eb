// The samples, symbolized: what the exit report, the folded stacks and the pprof
// profile are made from. Built at exit or on demand, never in the handler.
#ifndef PERF_RUNTIME_SAMPLER_PROFILE_HPP
#define PERF_RUNTIME_SAMPLER_PROFILE_HPP

#include <stdint.h>

#include <string>
#include <vector>

#include "modules.hpp"
#include "sample_config.hpp"
#include "sample_table.hpp"

namespace perf::runtime {

struct source_frame {
  std::string function;  // demangled; "module+0xoffset" when the module has no symbol there
  std::string file;      // empty without debug information
  unsigned line = 0;
  bool program_code = false;  // not the runtime's, the C or C++ library's, the loader's
};

// One distinct address in the samples.
struct profile_location {
  uintptr_t address = 0;
  int module = -1;                   // index into profile::modules; -1: none (unloaded, JIT)
  std::vector<source_frame> frames;  // inlined functions innermost first; never empty
};

struct profile_stack {
  uint32_t tid = 0;
  uint32_t site = 0;  // innermost open measured function; 0: none
  uint64_t count = 0;
  bool truncated = false;           // the walk stopped at the depth limit
  std::vector<uint32_t> locations;  // indexes into profile::locations, innermost first
};

struct profile {
  unsigned hz = 0;
  sample_clock clock = sample_clock::cpu;
  uint64_t total = 0;    // samples in `stacks`
  uint64_t dropped = 0;  // samples the table had no room for
  std::vector<loaded_module> modules;
  std::vector<profile_location> locations;
  std::vector<profile_stack> stacks;  // distinct (thread, site, addresses)
};

// Reads `table` (while it may still be filled) and symbolizes every address with
// the modules loaded now: a library unloaded since its samples shows as an address.
profile collect_profile(const sample_table& table, unsigned hz, sample_clock clock);

// The sample's "most interesting element": the innermost frame in the program's own
// code, or the innermost frame when the whole stack is someone else's.
const source_frame& most_interesting_frame(const profile& p, const profile_stack& stack);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_SAMPLER_PROFILE_HPP
