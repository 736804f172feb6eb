#include "ticklog/rings.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <new>

#include "core/warnings.hpp"
#include "perf/detail/atomic.hpp"
#include "ticklog/slow_calls.hpp"

namespace perf::runtime {
namespace {

using detail::load_relaxed;
using detail::tick_event;
using detail::tick_ring;

ring_record* all_rings = nullptr;  // atomic: pushed by attaching threads, read by the crash dump

// What commit_pages() commits at most: 16 MiB is far beyond the default ring (1.5 MiB
// of events, 4 MiB of labels); a thread given a larger ring should not make the whole
// of it resident before logging anything.
constexpr size_t max_committed_at_once = size_t{16} << 20;

size_t labels_bytes(uint64_t capacity) {
  return static_cast<size_t>(capacity) * detail::label_words * sizeof(uint64_t);
}

size_t page_bytes() { return static_cast<size_t>(sysconf(_SC_PAGESIZE)); }
static_assert(sizeof(ring_record) <= 4096, "a ring's record fits the page before its events");

// A ring's mapping: a page that holds its record, then its events, then their labels.
size_t ring_bytes(uint64_t capacity) { return page_bytes() + events_bytes(capacity) + labels_bytes(capacity); }

// Commits the pages of `bytes` at `memory` now (the first max_committed_at_once of
// them; the rest as they are written), so that no event pays for a page fault later:
// a first touch costs a microsecond or more (ten on the dev VM), and it would land
// inside the measured calls. The kernel maps the pages in one call where
// it can (Linux 5.14); touching each page then costs little, and under a hypervisor
// that backs guest memory lazily (as the dev VM's does) it is what really commits them.
void commit_pages(void* memory, size_t bytes) {
  bytes = std::min(bytes, max_committed_at_once);
#if defined(MADV_POPULATE_WRITE)
  madvise(memory, bytes, MADV_POPULATE_WRITE);  // an older kernel refuses: the loop does it all
#endif
  const size_t page = page_bytes();
  for (size_t offset = 0; offset < bytes; offset += page) static_cast<volatile char*>(memory)[offset] = 0;
}

}  // namespace

ring_record* create_ring(uint64_t capacity, long tid) {
  void* memory =
      mmap(nullptr, ring_bytes(capacity), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED) {
    warn("cannot reserve memory for a thread's tick log; aborting");
    std::abort();
  }
  auto* record = new (memory) ring_record{};
  auto* events = static_cast<tick_event*>(static_cast<void*>(static_cast<char*>(memory) + page_bytes()));
  // Events are committed now; labels, which most events lack, by the first one.
  commit_pages(events, events_bytes(capacity));
  record->ring.mask = capacity - 1;
  record->ring.events = events;
  record->ring.labels = reinterpret_cast<uint64_t*>(record->ring.events + capacity);
  record->tid = tid;
  record->next = __atomic_load_n(&all_rings, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(&all_rings, &record->next, record, true, __ATOMIC_RELEASE, __ATOMIC_RELAXED)) {}
  __atomic_fetch_or(&record->ring.capture_sites, limited_sites(), __ATOMIC_RELAXED);
  return record;
}

namespace {

// Gives the pages of [`from`, `to`) bytes into `memory` that hold nothing of it back
// to the kernel: they read as zero until written again.
void release_pages(void* memory, size_t from, size_t to) noexcept {
  const size_t page = page_bytes();
  from = (from + page - 1) / page * page;
  if (from < to) madvise(static_cast<char*>(memory) + from, to - from, MADV_DONTNEED);
}

}  // namespace

void trim_ring(ring_record& record) noexcept {
  const tick_ring& ring = record.ring;
  const uint64_t written = __atomic_load_n(&ring.written, __ATOMIC_ACQUIRE);
  if (written >= capacity(ring)) return;  // every event's memory holds one
  release_pages(ring.events, events_bytes(written), events_bytes(capacity(ring)));
  if (ring.labels_committed) release_pages(ring.labels, labels_bytes(written), labels_bytes(capacity(ring)));
}

void empty_ring(ring_record& record) noexcept {
  tick_ring& ring = record.ring;
  __atomic_store_n(&ring.written, uint64_t{0}, __ATOMIC_RELEASE);
  release_pages(ring.events, 0, events_bytes(capacity(ring)));
  if (ring.labels_committed) release_pages(ring.labels, 0, labels_bytes(capacity(ring)));
  ring.labels_committed = false;
}

void move_events(ring_record& from, ring_record& to) noexcept {
  tick_ring &source = from.ring, &target = to.ring;
  const uint64_t written = __atomic_load_n(&source.written, __ATOMIC_ACQUIRE);
  // Relaxed atomic stores, as the owner's: the crash dump may read `to` meanwhile.
  for (uint64_t i = 0; i < written; ++i) {
    const tick_event& event = source.events[i];
    const uint64_t meta = load_relaxed(event.meta);
    detail::store_relaxed(target.events[i].time, load_relaxed(event.time));
    detail::store_relaxed(target.events[i].value, load_relaxed(event.value));
    detail::store_relaxed(target.events[i].meta, meta);
    const uint64_t label_length = (meta >> 8) & 0xff;
    const uint64_t* label = source.labels + i * detail::label_words;
    uint64_t* label_copy = target.labels + i * detail::label_words;
    for (unsigned w = 0; w * 8 < label_length; ++w) detail::store_relaxed(label_copy[w], load_relaxed(label[w]));
  }
  __atomic_store_n(&to.tid, from.tid, __ATOMIC_RELAXED);
  __atomic_store_n(&target.written, written, __ATOMIC_RELEASE);
  __atomic_store_n(&source.written, uint64_t{0}, __ATOMIC_RELEASE);
  if (source.labels_committed) release_pages(source.labels, 0, labels_bytes(capacity(source)));
  target.labels_committed = source.labels_committed;  // for an exited thread's: "may be resident"
  source.labels_committed = false;
}

void reuse_ring(ring_record& record, long tid, bool committed) noexcept {
  __atomic_store_n(&record.tid, tid, __ATOMIC_RELAXED);
  __atomic_store_n(&record.uses, record.uses + 1, __ATOMIC_RELAXED);
  if (!committed) commit_pages(record.ring.events, events_bytes(capacity(record.ring)));
}

ring_record* newest_ring() noexcept { return __atomic_load_n(&all_rings, __ATOMIC_ACQUIRE); }

void keep_only_ring(ring_record* survivor) {
  for (ring_record* record = newest_ring(); record != nullptr;) {
    ring_record* const next = record->next;
    if (record != survivor) munmap(record, ring_bytes(capacity(record->ring)));
    record = next;
  }
  if (survivor != nullptr) {
    survivor->next = nullptr;
    survivor->ring.written = 0;
  }
  __atomic_store_n(&all_rings, survivor, __ATOMIC_RELEASE);
}

event_copy copy_of(const tick_event& event, const uint64_t* label) noexcept {
  event_copy copy;
  copy.time = event.time;
  copy.value = event.value;
  copy.kind = kind_of(event);
  copy.site = site_of(event);
  copy.label_length = label_length_of(event);
  if (copy.label_length != 0) __builtin_memcpy(copy.label, label, copy.label_length);
  copy.label[copy.label_length] = '\0';
  return copy;
}

namespace {

// Event `at` of `ring` into `event`, and its label's words into `label` (unless null)
// if it has one.
void load_event(const tick_ring& ring, uint64_t at, tick_event& event, uint64_t* label) noexcept {
  const tick_event& stored = ring.events[at];
  event.time = load_relaxed(stored.time);
  event.value = load_relaxed(stored.value);
  event.meta = load_relaxed(stored.meta);
  if (label == nullptr) return;
  const unsigned length = label_length_of(event);
  const uint64_t* words = ring.labels + at * detail::label_words;
  for (unsigned i = 0; i * 8 < length; ++i) label[i] = load_relaxed(words[i]);
}

}  // namespace

event_copy read_event(const tick_ring& ring, uint64_t index) noexcept {
  tick_event event;
  uint64_t label[detail::label_words];
  load_event(ring, index & ring.mask, event, label);
  return copy_of(event, label);
}

ring_counts count_events(const tick_ring& ring) noexcept {
  const uint64_t written = __atomic_load_n(&ring.written, __ATOMIC_ACQUIRE);
  const uint64_t kept = written < capacity(ring) ? written : capacity(ring);
  return {kept, written - kept};
}

namespace {

// The sequence number from which the events read before `after` was loaded are whole.
uint64_t whole_from(const tick_ring& ring, uint64_t after, bool quiescent) {
  const uint64_t end = after + (quiescent ? 0 : 1);
  return end > capacity(ring) ? end - capacity(ring) : 0;
}

}  // namespace

uint64_t read_events(const tick_ring& ring, uint64_t from, uint64_t to, detail::tick_event* events,
                     uint64_t* labels) noexcept {
  for (uint64_t index = from; index < to; ++index) {
    const uint64_t i = index - from;
    load_event(ring, index & ring.mask, events[i], labels != nullptr ? labels + i * detail::label_words : nullptr);
  }
  detail::load_load_barrier();
  const uint64_t valid_from = whole_from(ring, __atomic_load_n(&ring.written, __ATOMIC_RELAXED), false);
  return std::min(to - from, valid_from > from ? valid_from - from : 0);
}

uint64_t read_events(const tick_ring& ring, uint64_t from, uint64_t to, event_batch& out) {
  out.events.resize(to - from);
  if (out.labels.size() < (to - from) * detail::label_words) out.labels.resize((to - from) * detail::label_words);
  return read_events(ring, from, to, out.events.data(), out.labels.data());
}

ring_contents copy_window(const tick_ring& ring, uint64_t from, uint64_t to, uint64_t margin, bool quiescent) {
  const uint64_t written = __atomic_load_n(&ring.written, __ATOMIC_ACQUIRE);
  const uint64_t oldest = written > capacity(ring) ? written - capacity(ring) : 0;
  // A thread's events are in time order: back from the newest past those after `to`,
  // then to the first before `from`, reading their times only (a torn one that stops
  // a walk early is older than any whole one); the scopes' ends beyond the edges are
  // found from their kinds only, each read whole once.
  const auto time_at = [&](uint64_t index) { return load_relaxed(ring.events[index & ring.mask].time); };
  const auto kind_at = [&](uint64_t index) {
    return static_cast<detail::event_kind>(load_relaxed(ring.events[index & ring.mask].meta) & 0xff);
  };
  uint64_t end = written;
  while (end > oldest && time_at(end - 1) > to) --end;
  uint64_t first = end;
  while (first > oldest && time_at(first - 1) >= from) --first;
  std::vector<uint64_t> indices;  // of the events to read, in order
  // The enters of the scopes open at `from`: those no exit before `from` ends.
  const uint64_t earliest = from > margin ? from - margin : 0;
  for (uint64_t index = first, depth = 0; index > oldest && time_at(index - 1) >= earliest;) {
    const detail::event_kind kind = kind_at(--index);
    if (kind == detail::event_kind::exit) ++depth;
    else if (kind == detail::event_kind::enter && depth == 0) indices.push_back(index);
    else if (kind == detail::event_kind::enter) --depth;
  }
  std::reverse(indices.begin(), indices.end());
  for (uint64_t index = first; index < end; ++index) indices.push_back(index);
  // The exits of the scopes open at `to`: those that no enter after `to` begins.
  for (uint64_t index = end, depth = 0; index < written && time_at(index) <= to + margin; ++index) {
    const detail::event_kind kind = kind_at(index);
    if (kind == detail::event_kind::enter) ++depth;
    else if (kind == detail::event_kind::exit && depth == 0) indices.push_back(index);
    else if (kind == detail::event_kind::exit) --depth;
  }
  ring_contents contents;
  contents.events.reserve(indices.size());
  for (const uint64_t index : indices) contents.events.push_back(read_event(ring, index));
  detail::load_load_barrier();
  const uint64_t valid_from = whole_from(ring, __atomic_load_n(&ring.written, __ATOMIC_RELAXED), quiescent);
  const auto torn = std::lower_bound(indices.begin(), indices.end(), valid_from) - indices.begin();
  contents.events.erase(contents.events.begin(), contents.events.begin() + torn);
  return contents;
}

ring_contents copy_events(const tick_ring& ring, bool quiescent) {
  const uint64_t before = __atomic_load_n(&ring.written, __ATOMIC_ACQUIRE);
  const uint64_t first = before > capacity(ring) ? before - capacity(ring) : 0;
  std::vector<event_copy> read;
  read.reserve(before - first);
  for (uint64_t index = first; index < before; ++index) read.push_back(read_event(ring, index));
  detail::load_load_barrier();
  // The owner writes event i only after publishing written = i, so any event
  // overwritten while we read lies below the count we see now (plus the one the
  // owner may be writing), less the capacity.
  const uint64_t valid_from = whole_from(ring, __atomic_load_n(&ring.written, __ATOMIC_RELAXED), quiescent);
  ring_contents contents;
  const uint64_t skip = valid_from > first ? valid_from - first : 0;
  if (skip < read.size()) contents.events.assign(read.begin() + static_cast<ptrdiff_t>(skip), read.end());
  contents.dropped = before - contents.events.size();
  return contents;
}

}  // namespace perf::runtime

void perf::detail::commit_labels(tick_ring& ring) noexcept {
  runtime::commit_pages(ring.labels, runtime::labels_bytes(runtime::capacity(ring)));
  ring.labels_committed = true;
}
