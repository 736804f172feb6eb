// The tick rings: made once per thread, kept after the thread exits, and read
// safely while their threads still log.
#ifndef PERF_RUNTIME_TICKLOG_RINGS_HPP
#define PERF_RUNTIME_TICKLOG_RINGS_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

#include "perf/detail/tick_ring.hpp"

namespace perf::runtime {

// Where the crash dump is in reading a ring.
struct crash_reading {
  uint64_t next;       // sequence number of the next event to write
  uint64_t end;        // one past the last
  uint64_t next_time;  // clock value of event `next`
  uint64_t previous_time;
};

// A ring and what the crash dump needs to find and read it.
struct ring_record {
  detail::tick_ring ring;   // first, so that a tick_ring* is a ring_record*
  ring_record* next;        // every ring made, newest first; walked without a lock
  ring_record* next_spare;  // for the tick log's list of rings waiting for a new thread
  long tid;
  uint64_t uses;  // atomic: threads that have had it, counted before each one's first event
  crash_reading crash;
};
static_assert(offsetof(ring_record, ring) == 0);

// A ring of `capacity` events (a power of two), for the thread `tid`. The events'
// memory is committed at once (24 bytes each, up to 16 MiB; a larger ring commits
// the rest as it fills); the labels' (64 bytes each) by the first labelled tick
// (detail::commit_labels). Never freed, so a thread's events outlive it. The record
// and its ring are mapped from the kernel (a page for the record, then the
// events): nothing goes through the program's allocator, so a thread attaching with
// only the attach lock held may make one.
ring_record* create_ring(uint64_t capacity, long tid);

// Gives back the memory of the events that `record` does not hold (committed for
// a thread that has exited after logging fewer events than the ring's capacity):
// a kept ring then costs what its events take. Its thread must have exited.
void trim_ring(ring_record& record) noexcept;

// Empties `record`, whose thread has exited, and gives back all of its memory: the
// events it held are gone. Nobody may be reading it but the crash dump (best effort
// anyway), which reads zeros.
void empty_ring(ring_record& record) noexcept;

// Moves the events of `from`, whose thread has exited and which has not wrapped,
// into `to`, emptied and as large, which then stands for that thread; `from` is left
// empty, its events' memory still committed (its labels' given back), so that a
// new thread can take it without a page fault.
void move_events(ring_record& from, ring_record& to) noexcept;

// Gives `record`, emptied, to the thread `tid`, its events committed again unless
// `committed` (it was left so by move_events); counts the use (ring_record::uses),
// so that a reader who sees the new thread's first event also sees the count.
void reuse_ring(ring_record& record, long tid, bool committed) noexcept;

// The newest ring made; follow `next` for the others. Async-signal-safe.
ring_record* newest_ring() noexcept;

// In a forked child: every ring but `survivor`'s is unmapped and forgotten, and
// `survivor` (may be null) starts empty.
void keep_only_ring(ring_record* survivor);

// An event as read back, with its label.
struct event_copy {
  uint64_t time = 0;
  int64_t value = 0;
  unsigned site = 0;
  detail::event_kind kind = detail::event_kind::none;
  unsigned label_length = 0;
  char label[detail::max_label_length + 1] = {};
};

// Reads the event with sequence number `index` (no check that it is still kept).
// Async-signal-safe.
event_copy read_event(const detail::tick_ring& ring, uint64_t index) noexcept;

// `event` as read back, with the label in `label` (label_words words, read only for a
// labelled event; may be null for another).
event_copy copy_of(const detail::tick_event& event, const uint64_t* label) noexcept;

inline detail::event_kind kind_of(const detail::tick_event& event) {
  return static_cast<detail::event_kind>(event.meta & 0xff);
}
inline unsigned site_of(const detail::tick_event& event) { return static_cast<unsigned>(event.meta >> 32); }
inline unsigned label_length_of(const detail::tick_event& event) {
  return static_cast<unsigned>((event.meta >> 8) & 0xff);
}

inline uint64_t capacity(const detail::tick_ring& ring) { return ring.mask + 1; }

// The memory a ring of `capacity` keeps its events in (labels apart).
inline size_t events_bytes(uint64_t capacity) { return static_cast<size_t>(capacity) * sizeof(detail::tick_event); }

// Events logged so far that the ring still holds, and those it overwrote.
struct ring_counts {
  uint64_t kept = 0;
  uint64_t dropped = 0;
};
ring_counts count_events(const detail::tick_ring& ring) noexcept;

// The events `ring` holds, oldest first, none of them torn. `quiescent` says no
// thread is appending (the ring's thread has exited, or it is the caller): then
// every kept event is returned; otherwise the oldest one, which the owner may be
// overwriting at this very moment, is left out.
struct ring_contents {
  std::vector<event_copy> events;
  uint64_t dropped = 0;  // logged but not returned
};
ring_contents copy_events(const detail::tick_ring& ring, bool quiescent);

// Events as logged, read in bulk by a reader that keeps up with a ring: each event's
// fields (24 bytes), and the label of each labelled one, at label_words times its
// index in `labels` (the rest of `labels` not written).
struct event_batch {
  std::vector<detail::tick_event> events;
  std::vector<uint64_t> labels;
};

// Reads the events with sequence numbers from `from` to `to` (excluded) into `out`
// (its memory kept from call to call), as copy_events reads them while the owner may
// append; returns how many of the first ones may have been overwritten meanwhile,
// which are to be thrown away.
uint64_t read_events(const detail::tick_ring& ring, uint64_t from, uint64_t to, event_batch& out);
// The same into `events` and `labels` (room for to - from events each; `labels` may be
// null: no label read). Async-signal-safe: for the crash's trace.
uint64_t read_events(const detail::tick_ring& ring, uint64_t from, uint64_t to, detail::tick_event* events,
                     uint64_t* labels) noexcept;

// The events `ring` holds with a time from `from` to `to` (clock values), and the
// enters of the scopes open at `from` from one `margin` before it and the exits of
// those open at `to` up to one `margin` after it, oldest first, none of them torn,
// read as copy_events reads them (the oldest one left out unless `quiescent`): only
// those are read whole (the others' times and kinds, 16 bytes each). `dropped` is 0.
ring_contents copy_window(const detail::tick_ring& ring, uint64_t from, uint64_t to, uint64_t margin, bool quiescent);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_TICKLOG_RINGS_HPP
