// Capture rules judged where calls end (PERF_CAPTURE's FUNCTION>DURATION): the writer
// thread (trace_stream.hpp) gives a site a limit (limit_site); each measured thread
// compares its calls of the site with it as they end (detail::log_exit) and hands
// those past it over (detail::hand_slow_call) to a fixed room of slow_room calls,
// which the writer empties (take_slow_calls), woken by the first call handed over while
// it sleeps (wait_for_slow_calls). So an armed rule nobody breaks costs the writer no
// reading of the rings, and the measured threads a bit test per exit event.
//
// Memory: detail::capture_limits (8 bytes a site id: address space, a page resident
// for each 512 ids that a rule limits), the handover budgets (4 bytes a site id, the
// same way), a bit mask in each ring, and the room (2.5 KiB).
#ifndef PERF_RUNTIME_TICKLOG_SLOW_CALLS_HPP
#define PERF_RUNTIME_TICKLOG_SLOW_CALLS_HPP

#include <cstdint>
#include <vector>

#include "ticklog/rings.hpp"

namespace perf::runtime {

// A call that a rule caught: its site, its duration as judged (ticks, less the probe's
// cost) and the clock values of its enter and exit.
struct slow_call {
  unsigned site = 0;
  uint64_t duration = 0, enter = 0, exit = 0;
};

// Calls handed over and not yet taken, at most: beyond, a call is dropped.
constexpr unsigned slow_room = 64;

// Has calls of `site` longer than `ticks` handed over from now on, by every thread
// once it sees the site's bit in its ring and the limit (both relaxed: a thread that
// sees the bit first reads no limit, and hands over nothing until it sees it). Any
// thread; lock-free.
void limit_site(unsigned site, uint64_t ticks);

// Calls of a site past its limit that may be handed over from now on, at most (a call
// beyond is not handed over, nor counted), until the next call: for a FUNCTION>pQ
// rule's site, whose limit the writer finds again from time to time, so that a
// distribution that moved while the writer could not run (a machine grown busier)
// hands over a few calls judged against the old limit, not every call. A site never
// given a budget hands over every call past its limit. Any thread; lock-free.
void allow_handovers(unsigned site, uint32_t calls);

// The capture_sites bits of the sites limited so far: what a new ring starts with.
// For create_ring, which reads it after publishing the ring in the list of rings, so
// that a site limited meanwhile reaches it either way. Lock-free.
uint64_t limited_sites() noexcept;

// Appends the calls handed over since the last call, oldest end first, to `calls`;
// returns how many were dropped meanwhile (the room full). The writer thread's alone.
uint64_t take_slow_calls(std::vector<slow_call>& calls);

// The count of calls handed over so far (and of wake_slow_call_taker's calls), modulo
// 2^32: what wait_for_slow_calls waits to see change.
uint32_t slow_calls_signal() noexcept;

// Sleeps until slow_calls_signal() is no longer `seen` (a call handed over since the
// caller read it, or wake_slow_call_taker), or for `timeout_ms`. The call that hands
// over a call to a taker asleep wakes it (one system call; none while it is awake).
// The writer thread's alone.
void wait_for_slow_calls(uint32_t seen, unsigned timeout_ms);

// Wakes the thread in wait_for_slow_calls, or has its next one return at once.
void wake_slow_call_taker();

// Clears every site's limit, in every ring: for a forked child, whose writer thread
// did not survive the fork. Only while no other thread runs.
void unlimit_sites() noexcept;

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_TICKLOG_SLOW_CALLS_HPP
