// The per-thread ring of tick-log events, and the inline code that appends to it.
// Not part of the public API.
//
// Only the owning thread appends; dumps read concurrently. Every field a reader may
// see is written with a relaxed atomic store (a plain store on x86-64 and aarch64)
// before `written` is advanced, so a reader can tell a finished event from one
// being overwritten (see runtime/ticklog/rings.cpp for the reading side).
#ifndef PERF_DETAIL_TICK_RING_HPP
#define PERF_DETAIL_TICK_RING_HPP

#include <stddef.h>
#include <stdint.h>

#include "perf/detail/atomic.hpp"
#include "perf/detail/compiler.hpp"

namespace perf {
namespace detail {

enum class event_kind : unsigned char { none, tick, enter, exit };

// A label is cut to this many bytes.
constexpr size_t max_label_length = 63;
constexpr size_t label_words = 8;  // 64 bytes of label storage per event

// One event as the clock saw it: raw clock ticks, converted when dumped.
struct tick_event {
  uint64_t time;
  int64_t value;  // `n` of a tick; unused by scope events
  uint64_t meta;  // site id << 32 | label length << 8 | kind
};

PERF_DETAIL_ALWAYS_INLINE constexpr uint64_t event_meta(event_kind kind, uint64_t site, uint64_t label_length) {
  return site << 32 | label_length << 8 | static_cast<uint64_t>(kind);
}

// A power-of-two ring of events, and beside it a label buffer per event.
struct tick_ring {
  uint64_t written;  // events ever appended; event i lives at index i & mask
  uint64_t mask;     // capacity - 1
  tick_event* events;
  uint64_t* labels;       // label_words per event
  bool labels_committed;  // owner only: the label memory is resident (commit_labels)
  // Bit s % 64 set: a capture rule may limit the calls of site s (capture_limits).
  // Set by the runtime (atomic OR, any thread), read by the owner (relaxed): a rule
  // takes effect on a thread within the time the bit takes to reach it.
  uint64_t capture_sites;
};

// What a call of each site may last before a capture rule (PERF_CAPTURE) catches it,
// indexed by site id: its limit in clock ticks plus one; 0 where no rule limits the
// site. Written by the runtime (relaxed) before it sets the site's capture_sites bit
// in any ring; read relaxed by the measured threads where their calls end.
extern PERF_DETAIL_EXPORT uint64_t capture_limits[];

// Hands the runtime's writer thread a call of `site` from clock value `enter` to `exit`
// whose `duration` (as judge_call has it) lasted past the site's capture_limits: the
// writer takes its capture. Never blocks or allocates; wakes the writer if it sleeps
// (one system call, errno kept): async-signal-safe, so a measured call in a signal
// handler may end in it. Drops the call (counted as a capture skipped) where the calls
// handed over and not yet taken fill the runtime's room for them; leaves it out,
// uncounted, where the site's budget of handovers is spent (a FUNCTION>pQ rule's site
// between two findings of its limit: runtime/ticklog/slow_calls.hpp).
PERF_DETAIL_EXPORT void hand_slow_call(unsigned site, uint64_t duration, uint64_t enter, uint64_t exit) noexcept;

// Makes the label memory of the calling thread's `ring` resident, so that no later
// label meets a page fault; done by the thread's first labelled tick.
PERF_DETAIL_EXPORT void commit_labels(tick_ring& ring) noexcept;

// The slot the next event goes to.
PERF_DETAIL_ALWAYS_INLINE uint64_t next_index(const tick_ring& ring) noexcept { return ring.written & ring.mask; }

// Publishes the event written at next_index(). A reader that has seen any field of
// the event after this one also sees `written` advanced past this one.
PERF_DETAIL_ALWAYS_INLINE void commit_event(tick_ring& ring) noexcept {
  __atomic_store_n(&ring.written, ring.written + 1, __ATOMIC_RELEASE);
  store_store_barrier();
}

// Appends an event without value or label: a scope's enter or exit.
PERF_DETAIL_ALWAYS_INLINE void log_scope_event(tick_ring& ring, uint64_t time, event_kind kind,
                                               unsigned site) noexcept {
  tick_event& event = ring.events[next_index(ring)];
  store_relaxed(event.time, time);
  store_relaxed(event.meta, event_meta(kind, site, 0));
  commit_event(ring);
}

// Hands the call of `site` from clock value `enter` to `exit` to the runtime where its
// duration (in ticks, as the statistics record it: less the probe's cost) lasted past
// its site's capture limit. A site whose bit in the calling thread's `ring`'s
// capture_sites is clear (every site but those of the rules, and their neighbours
// modulo 64) pays one load of the ring's line and a branch not taken.
// Async-signal-safe.
PERF_DETAIL_ALWAYS_INLINE void judge_call(const tick_ring& ring, unsigned site, uint64_t duration, uint64_t enter,
                                          uint64_t exit) noexcept {
  if (PERF_DETAIL_UNLIKELY((load_relaxed(ring.capture_sites) >> (site & 63)) & 1)) {
    // Unsigned: no limit (0) wraps to the largest.
    if (duration > load_relaxed(capture_limits[site]) - 1) hand_slow_call(site, duration, enter, exit);
  }
}

// Appends a tick with value `n` and the first max_label_length bytes of `label`.
PERF_DETAIL_ALWAYS_INLINE void log_tick(tick_ring& ring, uint64_t time, int64_t n, const char* label,
                                        size_t length) noexcept {
  if (length > max_label_length) length = max_label_length;
  const uint64_t index = next_index(ring);
  if (length != 0) {
    if (PERF_DETAIL_UNLIKELY(!ring.labels_committed)) commit_labels(ring);
    uint64_t words[label_words] = {};
    __builtin_memcpy(words, label, length);
    uint64_t* stored = ring.labels + index * label_words;
    for (size_t i = 0; i * 8 < length; ++i) store_relaxed(stored[i], words[i]);
  }
  tick_event& event = ring.events[index];
  store_relaxed(event.time, time);
  store_relaxed(event.value, n);
  store_relaxed(event.meta, event_meta(event_kind::tick, 0, length));
  commit_event(ring);
}

}  // namespace detail
}  // namespace perf

#endif  // PERF_DETAIL_TICK_RING_HPP
