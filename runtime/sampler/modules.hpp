// The executable and the shared libraries loaded in the process, read with
// dl_iterate_phdr: never from the sample handler (it takes the loader's lock); and
// the libraries unloaded while the sampler ran, so that a sample taken in a plugin
// before its dlclose is still charged to the plugin.
#ifndef PERF_RUNTIME_SAMPLER_MODULES_HPP
#define PERF_RUNTIME_SAMPLER_MODULES_HPP

#include <stdint.h>

#include <string>
#include <vector>

namespace perf::runtime {

struct loaded_module {
  std::string path;     // the executable's real path, or the library's as loaded
  uintptr_t start = 0;  // its executable segment: [start, limit)
  uintptr_t limit = 0;
  uint64_t file_offset = 0;  // of that segment in the file
  uintptr_t bias = 0;        // load address minus link-time address: pc - bias is what addr2line takes
  std::string build_id;      // GNU build id in lower-case hex; empty if none
  bool unloaded = false;     // unmapped by dlclose: its addresses may since hold other code
};

// Every loaded module with an executable segment (the vDSO included), in load order,
// then the unloaded ones kept by remember_if_unloaded, newest first: module_at finds
// a loaded module before an unloaded one at the same address. Thread-safe.
std::vector<loaded_module> loaded_modules();

// The executable segments of the module `handle` (a dlopen handle) names; empty if
// none. For dlclose's hook, before the real dlclose.
std::vector<loaded_module> modules_of(void* handle);

// Keeps `segments` (from modules_of) among the unloaded modules if the dlclose since
// has unmapped them: the newest 256 distinct ones are kept. Thread-safe.
void remember_if_unloaded(std::vector<loaded_module> segments);

// The module whose executable segment holds `pc`, or null.
const loaded_module* module_at(const std::vector<loaded_module>& modules, uintptr_t pc);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_SAMPLER_MODULES_HPP
