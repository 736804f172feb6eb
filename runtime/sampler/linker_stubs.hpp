// The procedure linkage table of a module: the stubs the static linker writes for
// its calls into other modules (sections .plt, .plt.sec, .plt.got), each a jump
// through the global offset table. No symbol names them, and they are nobody's own
// code: a sample that lands in one is in a call on its way to a library.
#ifndef PERF_RUNTIME_SAMPLER_LINKER_STUBS_HPP
#define PERF_RUNTIME_SAMPLER_LINKER_STUBS_HPP

#include <stdint.h>

#include <string>
#include <vector>

namespace perf::runtime {

struct link_time_range {
  uintptr_t start;  // link-time addresses: a loaded module's are these plus its bias
  uintptr_t limit;
};

// The linker stubs of the ELF file at `path`, read from its section headers (which
// are not loaded: the file is opened). Empty when the file cannot be read or has none.
// Never from a signal handler.
std::vector<link_time_range> linker_stub_ranges(const std::string& path);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_SAMPLER_LINKER_STUBS_HPP
