// The next definition of a function the runtime interposes (the one after it in
// symbol order: a sanitizer's interceptor, or the C library's), for the runtime's
// signal and descriptor functions.
#ifndef PERF_RUNTIME_CORE_NEXT_FUNCTION_HPP
#define PERF_RUNTIME_CORE_NEXT_FUNCTION_HPP

#include <dlfcn.h>
#include <errno.h>

namespace perf::runtime {

// The next definition of `name`, looked up once into `slot`; null without one. The
// lookup (dlsym) is not async-signal-safe: look each up at start-up.
template <class Function>
Function next_definition(Function& slot, const char* name) noexcept {
  Function found = __atomic_load_n(&slot, __ATOMIC_ACQUIRE);
  if (found == nullptr) {
    found = reinterpret_cast<Function>(dlsym(RTLD_NEXT, name));
    __atomic_store_n(&slot, found, __ATOMIC_RELEASE);
  }
  return found;
}

}  // namespace perf::runtime

// Calls the next `name` with `arguments`, or fails with ENOSYS and `failure`.
#define PERF_CALL_NEXT(slot, name, failure, ...)                                                   \
  if (auto* function = ::perf::runtime::next_definition(slot, name)) return function(__VA_ARGS__); \
  errno = ENOSYS;                                                                                  \
  return failure

#endif  // PERF_RUNTIME_CORE_NEXT_FUNCTION_HPP
