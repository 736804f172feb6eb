// USDT probes of the measured calls: perf:enter and perf:exit, one pair for every
// site, in libperfrt (docs/timeline.md, "USDT"). Not part of the public API.
//
// Each probe is guarded by its semaphore, which a tracer (bpftrace, perf, SystemTap)
// raises while it is attached: the timed path reads it, and calls the runtime, whose
// code holds the probe itself, only while it is raised. A runtime built without the
// probes (no sys/sdt.h; PERF_USDT=OFF) has semaphores nothing raises. Untimed calls
// pass no probe; while either semaphore is raised the runtime times every call of a
// sampled site from its next timed call on (next_countdown), so that they do.
#ifndef PERF_DETAIL_USDT_HPP
#define PERF_DETAIL_USDT_HPP

#include <stdint.h>

#include "perf/detail/compiler.hpp"
#include "perf/detail/thread_state.hpp"

namespace perf {
namespace detail {

// The semaphores of perf:enter and perf:exit, nonzero while a tracer is attached
// (written by the kernel on its behalf). Reached through these pointers, never by the
// semaphores' own names: a program that named them would get a copy of them (a copy
// relocation), which no tracer raises.
extern PERF_DETAIL_EXPORT const volatile unsigned short* const usdt_enter_semaphore;
extern PERF_DETAIL_EXPORT const volatile unsigned short* const usdt_exit_semaphore;

// Fire perf:enter (site id, name, clock value read here, in `thread`'s clock ticks)
// and perf:exit (site id, name, `now`, the call's time from `start`, its opening
// clock read, to `now` in nanoseconds: the probe's own cost, which the report
// subtracts, not subtracted; 0 where the clock stepped back). Called by the calling
// thread, for its own block, while the semaphore is raised. Async-signal-safe.
PERF_DETAIL_EXPORT void usdt_enter(const thread_state& thread, unsigned site) noexcept;
PERF_DETAIL_EXPORT void usdt_exit(const thread_state& thread, unsigned site, uint64_t start, uint64_t now) noexcept;

}  // namespace detail
}  // namespace perf

#endif  // PERF_DETAIL_USDT_HPP
