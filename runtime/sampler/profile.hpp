// The samples, symbolized: what the exit report, the folded stacks and the pprof
// profile are made from. Built at exit or on demand, never in the handler.
#ifndef PERF_RUNTIME_SAMPLER_PROFILE_HPP
#define PERF_RUNTIME_SAMPLER_PROFILE_HPP

#include <stdint.h>

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "sampler/code_owner.hpp"
#include "sampler/modules.hpp"
#include "sampler/sample_config.hpp"
#include "sampler/sample_table.hpp"

namespace perf::runtime {

struct source_frame {
  std::string function;  // demangled; "module+0xoffset" when the module has no symbol there
  std::string file;      // empty without debug information
  unsigned line = 0;
  code_owner owner = code_owner::library;
};

// One distinct address in the samples.
struct profile_location {
  uintptr_t address = 0;
  int module = -1;                   // index into profile::modules; -1: none (unloaded, JIT)
  std::vector<source_frame> frames;  // inlined functions innermost first; never empty
};

struct profile_stack {
  uint32_t tid = 0;
  uint32_t site = 0;  // the measured function the sample was taken in (measured_function.hpp); 0: none
  uint64_t count = 0;
  bool truncated = false;           // the walk stopped at the depth limit or a frame it could not check
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

// The count of every distinct (thread, site, addresses) in a table at one moment:
// what a profile of the samples taken after it leaves out.
using stack_counts = std::map<std::tuple<uint32_t, uint32_t, std::vector<uintptr_t>>, uint64_t>;
stack_counts count_stacks(const sample_table& table);

// Reads `table` (while it may still be filled) and symbolizes every address with
// the modules loaded now: a library unloaded since its samples shows as an address.
// With `since`, only the samples taken after those counts are in the profile.
// An address is symbolized once; later profiles reuse it while the set of loaded
// modules stays the same. Thread-safe.
profile collect_profile(const sample_table& table, unsigned hz, sample_clock clock,
                        const stack_counts* since = nullptr);

// The frames at the return address `address` (its inlined functions innermost first;
// never empty), symbolized with the modules loaded now. Any thread; allocates.
std::vector<source_frame> symbolize_return_address(uintptr_t address);

// Stacks of return addresses symbolized as a profile's are, with the modules loaded
// now: the modules, one location per distinct address, and each stack as indexes into
// the locations, in the order given. `stacks`: return addresses, innermost first (a
// heap sample's). Any thread; allocates.
struct symbolized_stacks {
  std::vector<loaded_module> modules;
  std::vector<profile_location> locations;
  std::vector<std::vector<uint32_t>> stacks;
};
symbolized_stacks symbolize_return_address_stacks(const std::vector<std::vector<uintptr_t>>& stacks);

// Whether the symbolizer has read the modules' symbols and debug information (its
// first address symbolized, by anyone): symbolizing is quick from then on. Lock-free.
bool symbolizer_ready() noexcept;

// The functions of each of `stacks` (a sample's frames: the interrupted instruction,
// then return addresses; truncation marks left out), inlined ones included, innermost
// first, as a profile names them. Any thread; allocates.
std::vector<std::vector<std::string>> sampled_stack_functions(const std::vector<std::vector<uintptr_t>>& stacks);

// The sample's "most interesting element": the innermost frame in the program's own
// code (perf's and the libraries' frames passed over, the inlined ones included), or
// the innermost frame when the whole stack is someone else's.
const source_frame& most_interesting_frame(const profile& p, const profile_stack& stack);

// Whether the sample was taken in perf's own code: the stack's innermost frame that
// is not a library's is the runtime's (a probe's begin or end, the allocation
// counters, or the runtime's own work in a library: its symbolizer's libbacktrace and
// zlib, its report writing), other than an interposed allocation function calling the
// C library's. Its caller still gets the sample above.
bool taken_in_runtime(const profile& p, const profile_stack& stack);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_SAMPLER_PROFILE_HPP
