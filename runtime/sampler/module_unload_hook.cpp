// dlclose, interposed: while the sampler runs, the segments of a library about to be
// unloaded are read first and kept if the real dlclose unmaps them (modules.hpp), so
// samples taken in its code are named after it at exit, not charged to whoever
// called into it. The real dlclose is the next definition in the lookup order (a
// sanitizer's interceptor, else the C library's), found with dlsym(RTLD_NEXT). On every
// call, sampled or not, the calling thread's walks keep out of the modules being
// unloaded meanwhile (core/stack_unwind.hpp, no_loader_search).
#include <dlfcn.h>

#include "core/stack_unwind.hpp"
#include "core/uncounted_allocations.hpp"
#include "perf/detail/compiler.hpp"
#include "sampler/internal/sampling.hpp"
#include "sampler/modules.hpp"

extern "C" PERF_DETAIL_EXPORT int dlclose(void* handle) {
  using namespace perf::runtime;
  using close_function = int (*)(void*);
  static const auto real = reinterpret_cast<close_function>(dlsym(RTLD_NEXT, "dlclose"));
  if (real == nullptr) return -1;    // unreachable in a dynamically linked program, which has dlsym
  const no_loader_search unloading;  // no walk on this thread reads a module the real dlclose may unmap
  if (!sampling_new_threads()) return real(handle);
  std::vector<loaded_module> segments;
  {
    const uncounted_allocations runtime_work;
    segments = modules_of(handle);
  }
  const int result = real(handle);  // the library's destructors are the program's work
  const uncounted_allocations runtime_work;
  if (result == 0) remember_if_unloaded(std::move(segments));
  segments = {};
  return result;
}
