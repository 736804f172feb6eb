// The executable and the shared libraries loaded in the process, read with
// dl_iterate_phdr: never from the sample handler (it takes the loader's lock).
#ifndef PERF_RUNTIME_SAMPLER_MODULES_HPP
#define PERF_RUNTIME_SAMPLER_MODULES_HPP

#include <stdint.h>

#include <string>
#include <vector>

namespace perf::runtime {

struct loaded_module {
  std::string path;      // the executable's real path, or the library's as loaded
  uintptr_t start = 0;   // its executable segment: [start, limit)
  uintptr_t limit = 0;
  uint64_t file_offset = 0;  // of that segment in the file
  uintptr_t bias = 0;    // load address minus link-time address: pc - bias is what addr2line takes
  std::string build_id;  // GNU build id in lower-case hex; empty if none
};

// Every loaded module with an executable segment (the vDSO included), in load order.
std::vector<loaded_module> loaded_modules();

// The module whose executable segment holds `pc`, or null.
const loaded_module* module_at(const std::vector<loaded_module>& modules, uintptr_t pc);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_SAMPLER_MODULES_HPP
