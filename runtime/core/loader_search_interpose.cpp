// dl_iterate_phdr, interposed: the calling thread's walks search no list of the
// loader's while it searches one (no_loader_search, core/stack_unwind.hpp), but inside
// its callback, where the lock is held whole. A signal handler's walk that searched the
// list (a rule derived by libunwind, a frame in a module loaded later) while its
// thread was taking or releasing the list's recursive lock (its owner not yet set, or
// already cleared) waited on its own thread for ever. The real dl_iterate_phdr is the
// next definition in the lookup order (a sanitizer's interceptor, else the C
// library's); it lists the same modules whoever calls it.
#include <dlfcn.h>
#include <link.h>

#include "core/next_function.hpp"
#include "core/stack_unwind.hpp"
#include "core/startup.hpp"
#include "perf/detail/compiler.hpp"

namespace perf::runtime {
namespace {

using search_callback = int (*)(dl_phdr_info*, size_t, void*);
int (*next_dl_iterate_phdr)(search_callback, void*);

// Set at start-up: before it, no walk runs, and a sanitizer's own start-up searches the
// list before its shadow memory exists (the call must touch nothing instrumented).
bool guarding = false;

PERF_RUNTIME_ON_START(guard_loader_searches) {
  next_definition(next_dl_iterate_phdr, "dl_iterate_phdr");
  __atomic_store_n(&guarding, true, __ATOMIC_RELEASE);
}

struct caller_search {
  search_callback callback;
  void* data;
};

int with_lock_held(dl_phdr_info* info, size_t size, void* argument) {
  const auto& search = *static_cast<const caller_search*>(argument);
  const loader_lock_held held;
  return search.callback(info, size, search.data);
}

int guarded_search(search_callback callback, void* data) {
  caller_search search{callback, data};
  const no_loader_search searching;
  PERF_CALL_NEXT(next_dl_iterate_phdr, "dl_iterate_phdr", -1, with_lock_held, &search);
}

}  // namespace
}  // namespace perf::runtime

extern "C" PERF_DETAIL_EXPORT __attribute__((no_sanitize("address", "thread", "undefined"))) int dl_iterate_phdr(
    perf::runtime::search_callback callback, void* data) {
  using namespace perf::runtime;
  if (__atomic_load_n(&guarding, __ATOMIC_ACQUIRE)) return guarded_search(callback, data);
  const auto next = reinterpret_cast<int (*)(search_callback, void*)>(dlsym(RTLD_NEXT, "dl_iterate_phdr"));
  return next != nullptr ? next(callback, data) : -1;
}
