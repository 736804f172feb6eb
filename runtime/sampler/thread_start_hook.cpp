// pthread_create, interposed: while the sampler runs, every new thread arms its own
// timer before it runs its start routine, so no thread goes unsampled and none needs
// registering. The real pthread_create is the next definition in the lookup order
// (a sanitizer's interceptor, else the C library's), found with dlsym(RTLD_NEXT).
#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>

#include <cstdlib>
#include <new>

#include "core/uncounted_allocations.hpp"
#include "perf/detail/compiler.hpp"
#include "sampler/internal/sampling.hpp"

namespace perf::runtime {
namespace {

using create_function = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);

create_function real_pthread_create() {
  static const auto real = reinterpret_cast<create_function>(dlsym(RTLD_NEXT, "pthread_create"));
  if (real == nullptr) {
    static const char message[] = "perf: pthread_create not found after the runtime (a static executable?)\n";
    (void)!write(STDERR_FILENO, message, sizeof message - 1);
    std::abort();
  }
  return real;
}

struct launch {
  void* (*start)(void*);
  void* argument;
};

void* start_sampled_thread(void* record) {
  const launch what = *static_cast<launch*>(record);
  {
    const uncounted_allocations runtime_work;
    delete static_cast<launch*>(record);
    arm_calling_thread();
  }
  return what.start(what.argument);
}

}  // namespace

void install_thread_start_hook() { real_pthread_create(); }

}  // namespace perf::runtime

extern "C" PERF_DETAIL_EXPORT int pthread_create(pthread_t* thread, const pthread_attr_t* attributes,
                                                 void* (*start)(void*), void* argument) {
  using namespace perf::runtime;
  const create_function real = real_pthread_create();
  if (!sampling_new_threads()) return real(thread, attributes, start, argument);
  launch* record;
  {
    const uncounted_allocations runtime_work;
    record = new (std::nothrow) launch{start, argument};
  }
  if (record == nullptr) return real(thread, attributes, start, argument);  // unsampled rather than not started
  const int error = real(thread, attributes, start_sampled_thread, record);
  if (error != 0) {
    const uncounted_allocations runtime_work;
    delete record;
  }
  return error;
}
