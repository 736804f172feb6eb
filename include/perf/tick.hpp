// The tick log: timestamped points in the code, kept per thread in a ring.
//
//   perf::tick(42);                   // clock, 42
//   perf::tick(bytes, "sent frame");  // clock, bytes, the label (up to 63 bytes)
//
// A tick costs about one clock read: no lock, allocation, system call or page
// fault (the thread's ring is made and committed by its first tick or measured
// call). Every measured scope also logs its enter and exit. When the ring is full
// the oldest events are overwritten and counted as dropped. The log is written
// when the program exits (PERF_TICKLOG, PERF_TRACE), on a fatal signal, or by
// dump_ticks(); see docs/usage.md. With PERF_TICKS=off every tick does nothing.
// C++11 and later.
#ifndef PERF_TICK_HPP
#define PERF_TICK_HPP

#include <stddef.h>
#include <stdint.h>

#include <string>
#if __cplusplus >= 201703L
#include <string_view>
#endif

#include "perf/detail/compiler.hpp"
#include "perf/detail/thread_state.hpp"

namespace perf {
namespace detail {

PERF_DETAIL_ALWAYS_INLINE void tick(int64_t n, const char* label, size_t length) noexcept {
  thread_state* thread = current_thread;
  if (PERF_DETAIL_UNLIKELY(thread == nullptr) && (thread = attach_thread()) == nullptr) return;
  if (PERF_DETAIL_UNLIKELY(thread->ring == nullptr)) return;
  log_tick(*thread->ring, clock_now(thread->clock), n, label, length);
}

}  // namespace detail

// Logs the clock and `n` on the calling thread.
PERF_DETAIL_ALWAYS_INLINE void tick(int64_t n) noexcept { detail::tick(n, nullptr, 0); }

// Logs the clock, `n` and `label` (a string literal, or any NUL-terminated array).
template <size_t N>
PERF_DETAIL_ALWAYS_INLINE void tick(int64_t n, const char (&label)[N]) noexcept {
  detail::tick(n, label, __builtin_strlen(label));
}

// Logs the clock, `n` and `length` bytes of `label`.
PERF_DETAIL_ALWAYS_INLINE void tick(int64_t n, const char* label, size_t length) noexcept {
  detail::tick(n, label, length);
}

#if __cplusplus >= 201703L
// Logs the clock, `n` and `label`; the bytes are copied, `label` may die right after.
PERF_DETAIL_ALWAYS_INLINE void tick(int64_t n, std::string_view label) noexcept {
  detail::tick(n, label.data(), label.size());
}
#endif

// Writes every thread's events kept so far to `path` ("%p" becomes the process
// id), merged in time order, in the PERF_TICKLOG format; threads keep logging.
// The file is replaced whole or not at all. On failure, returns false after one
// warning line on stderr.
PERF_DETAIL_EXPORT bool dump_ticks(const std::string& path);

}  // namespace perf

#endif  // PERF_TICK_HPP
