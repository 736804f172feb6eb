// Atomic access to plain fields that one thread writes and others read. Not part
// of the public API.
//
// The hot path keeps its data in plain structs (they are zero pages until used and
// constant-initialized where static), written only by their owning thread; the
// runtime reads them while the owner runs. Every such access goes through these
// helpers, so the reads and writes are atomic (no torn values, TSan-clean) yet cost
// what plain loads and stores cost on x86-64 and aarch64.
#ifndef PERF_DETAIL_ATOMIC_HPP
#define PERF_DETAIL_ATOMIC_HPP

#include <stdint.h>

#include "perf/detail/compiler.hpp"

namespace perf {
namespace detail {

// Stores `value` into `field` atomically, with no ordering.
template <class T>
PERF_DETAIL_ALWAYS_INLINE void store_relaxed(T& field, T value) noexcept {
  __atomic_store(&field, &value, __ATOMIC_RELAXED);
}

// Adds `delta` to `field`, which only the calling thread writes, with one store.
// On x86-64 one instruction (load, add and store in one macro-op) instead of three,
// which a 32-byte malloc/free pair measures (docs/performance.md); a reader on
// another thread sees the value before or after it, as with store_relaxed.
PERF_DETAIL_ALWAYS_INLINE void add_relaxed(uint64_t& field, uint64_t delta) noexcept {
#if defined(__x86_64__)
  __asm__("addq %1, %0" : "+m"(field) : "er"(delta));
#else
  store_relaxed(field, field + delta);
#endif
}

// Loads `field` atomically, with no ordering.
template <class T>
PERF_DETAIL_ALWAYS_INLINE T load_relaxed(const T& field) noexcept {
  T value;
  __atomic_load(&field, &value, __ATOMIC_RELAXED);
  return value;
}

// Orders the stores before it ahead of the stores after it. x86-64 never reorders
// stores, so there it only stops the compiler (and keeps ThreadSanitizer, which
// does not model fences, quiet).
PERF_DETAIL_ALWAYS_INLINE void store_store_barrier() noexcept {
#if defined(__x86_64__)
  __asm__ __volatile__("" ::: "memory");
#else
  __atomic_thread_fence(__ATOMIC_RELEASE);
#endif
}

// Orders the loads before it ahead of the loads after it; x86-64 never reorders loads.
PERF_DETAIL_ALWAYS_INLINE void load_load_barrier() noexcept {
#if defined(__x86_64__)
  __asm__ __volatile__("" ::: "memory");
#else
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
#endif
}

}  // namespace detail
}  // namespace perf

#endif  // PERF_DETAIL_ATOMIC_HPP
