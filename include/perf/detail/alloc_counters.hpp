// The per-thread allocation counters that perf::alloc's interposer (or, under a
// sanitizer, its allocation hooks) writes, and that the measure scope, the report
// and the watcher read. Not part of the public API (see perf/alloc.hpp).
//
// Each thread that allocates gets one record, on its first counted allocation.
// Only the owning thread writes a record's counters, each update with one store
// (a relaxed atomic store; on x86-64 an `add` to memory, whose store is one aligned
// 8-byte write); any thread may read them with relaxed atomic loads. Records are never
// freed, so a pointer to one stays valid for the life of the process.
#ifndef PERF_DETAIL_ALLOC_COUNTERS_HPP
#define PERF_DETAIL_ALLOC_COUNTERS_HPP

#include <stddef.h>
#include <stdint.h>

#include "perf/detail/atomic.hpp"
#include "perf/detail/compiler.hpp"

namespace perf {
namespace alloc {
namespace detail {

// How many allocations a recording thread describes (for test failure messages),
// and how many frames of each one's stack it keeps.
constexpr unsigned recorded_allocations = 8;
constexpr unsigned recorded_frames = 32;

// One allocation made while recording: the size the code asked for, the size of the
// block it got, and the return addresses of its stack, innermost first.
struct recorded_allocation {
  uint64_t requested;
  uint64_t usable;
  uint32_t depth;
  uintptr_t frames[recorded_frames];
};

enum record_state : uint32_t { unattached = 0, alive = 1, exited = 2 };

struct alignas(64) thread_counters {  // its own cache lines: no false sharing
  // Bytes are the sizes of the blocks as the allocator reports them
  // (malloc_usable_size; __sanitizer_get_allocated_size under a sanitizer), taken
  // the same way at allocation and at free, so that the two balance.
  uint64_t allocations;
  uint64_t bytes;
  uint64_t frees;
  uint64_t bytes_freed;
  uint64_t peak_live;  // highest `bytes - bytes_freed` so far (0 if it never was positive)
  // Heap sampling (PERF_HEAP_SAMPLE): requested bytes left before the next sampled
  // allocation; below zero, the allocation that took it there is sampled (or, with
  // sampling off, the countdown is put out of reach). Only the owning thread reads
  // and writes it.
  int64_t sample_countdown;
  uint32_t state;      // a record_state; `unattached` only in the shared placeholder
  uint32_t recording;  // nonzero: describe the next allocations in `recorded`
                       // (and in the placeholder, which keeps nothing)
  // Nonzero while heap sampling is on: a free tests the sampled blocks' filter. Set
  // when the record is attached and, for the records there already, when sampling
  // starts (check_frees_of_sampled_blocks); the owner only reads it.
  uint32_t check_frees;
  uint32_t sizes_seen;       // allocations since recording started
  uint64_t requested_bytes;  // the sizes they asked for, summed
  // Set by the owning thread before it starts recording: room for
  // `recorded_allocations` descriptions; null keeps none.
  recorded_allocation* recorded;
  // Fixed when the record is attached, except `name`, taken when the thread exits.
  long tid;
  char name[16];
  thread_counters* next;  // the next older record
};

// The calling thread's record; until its first counted allocation, a shared
// placeholder that nobody writes, its counters zero, so readers need no null check.
extern PERF_DETAIL_TLS thread_counters* current PERF_DETAIL_EXPORT;

// Gives the calling thread its own record (idempotent) and returns it. Allocates
// no heap memory, so it is safe inside malloc.
PERF_DETAIL_EXPORT thread_counters* attach() noexcept;

PERF_DETAIL_ALWAYS_INLINE thread_counters& this_thread_record() noexcept {
  thread_counters* record = current;
  if (PERF_DETAIL_UNLIKELY(record->state == unattached)) record = attach();
  return *record;
}

using ::perf::detail::add_relaxed;
using ::perf::detail::load_relaxed;
using ::perf::detail::store_relaxed;

// Describes an allocation of `requested` bytes in a block of `usable` bytes made by
// the calling thread, whose record `record` is recording: its sizes and its stack
// (an unwinding that takes no lock the allocator holds and does not allocate).
PERF_DETAIL_EXPORT void record_allocation(thread_counters& record, uint64_t usable, uint64_t requested) noexcept;

// Adds one allocation of a block of `bytes` to `record`, the calling thread's own,
// leaving its recorded allocations alone.
PERF_DETAIL_ALWAYS_INLINE void add_allocation(thread_counters& record, uint64_t bytes) noexcept {
  add_relaxed(record.allocations, 1);
  add_relaxed(record.bytes, bytes);
  const int64_t live = static_cast<int64_t>(record.bytes - record.bytes_freed);
  if (live > static_cast<int64_t>(record.peak_live)) store_relaxed(record.peak_live, static_cast<uint64_t>(live));
}

// Heap sampling's part of the allocation path (defined in libperfrt's alloc/, which hands it
// to the heap sampler registered there: runtime/alloc/heap_sampling_hook.hpp): the
// hot path only subtracts and compares; a free tests one bit.
//
// Takes `requested` bytes off `record`'s countdown (the calling thread's own);
// whether the allocation is to be sampled (passed to sample_allocation).
PERF_DETAIL_ALWAYS_INLINE bool sample_due(thread_counters& record, uint64_t requested) noexcept {
  record.sample_countdown -= static_cast<int64_t>(requested);
  return PERF_DETAIL_UNLIKELY(record.sample_countdown < 0);
}

// The allocation of `block` (`requested` bytes) on the calling thread, whose record
// `record` has a countdown below zero: samples it if heap sampling is on (its stack
// and size recorded, the block added to the live set) and draws the next countdown.
// Takes no lock the allocator holds; allocates nothing but through the calling thread
// (whose nested allocations are not sampled).
PERF_DETAIL_EXPORT void sample_allocation(thread_counters& record, const void* block, uint64_t requested) noexcept;

// A filter of the sampled blocks still live: a set bit per hash of their addresses
// (a block whose bit is clear was not sampled). Written under the heap sampler's lock
// with relaxed atomic stores; read without a lock. Zero while sampling is off.
constexpr unsigned sampled_filter_bits_log2 = 16;
extern PERF_DETAIL_EXPORT uint64_t sampled_filter[(1u << sampled_filter_bits_log2) / 64];

// The bit of sampled_filter that stands for `block`.
PERF_DETAIL_ALWAYS_INLINE uint64_t sampled_filter_bit(const void* block) noexcept {
  return (static_cast<uint64_t>(reinterpret_cast<uintptr_t>(block)) * 0x9E3779B97F4A7C15ull) >>
         (64 - sampled_filter_bits_log2);
}

// Whether `block`, freed by the thread whose record is `record`, may be a sampled live
// block (false: it is not one). Lock-free; with sampling off, one test of the record.
PERF_DETAIL_ALWAYS_INLINE bool maybe_sampled(const thread_counters& record, const void* block) noexcept {
  if (PERF_DETAIL_LIKELY(load_relaxed(record.check_frees) == 0)) return false;
  const uint64_t bit = sampled_filter_bit(block);
  return PERF_DETAIL_UNLIKELY(((load_relaxed(sampled_filter[bit >> 6]) >> (bit & 63)) & 1) != 0);
}

// Has every record, those there now and those attached later, test the filter on
// free: called once, when heap sampling starts.
PERF_DETAIL_EXPORT void check_frees_of_sampled_blocks() noexcept;

// The free of `block`, which maybe_sampled() let through: if it is a sampled live
// block, takes it out of the live set. Call it before the block is freed.
PERF_DETAIL_EXPORT void forget_sampled(const void* block) noexcept;

// Counts one allocation of `block`, of `bytes` (its usable size), asked for as
// `requested` bytes, on the calling thread.
PERF_DETAIL_ALWAYS_INLINE void count_allocation(const void* block, uint64_t bytes, uint64_t requested) noexcept {
  thread_counters& record = this_thread_record();
  add_allocation(record, bytes);
  if (PERF_DETAIL_UNLIKELY(record.recording != 0)) record_allocation(record, bytes, requested);
  if (sample_due(record, requested)) sample_allocation(record, block, requested);
}

// Adds one free of a block of `bytes` to `record`, the calling thread's own, leaving
// the heap sampler's live set alone.
PERF_DETAIL_ALWAYS_INLINE void add_free(thread_counters& record, uint64_t bytes) noexcept {
  add_relaxed(record.frees, 1);
  add_relaxed(record.bytes_freed, bytes);
}

// Counts one free of `block`, of `bytes`, in `record`, the calling thread's own.
PERF_DETAIL_ALWAYS_INLINE void count_free(thread_counters& record, const void* block, uint64_t bytes) noexcept {
  add_free(record, bytes);
  if (maybe_sampled(record, block)) forget_sampled(block);
}

// Counts one free of `block`, of `bytes`, on the calling thread.
PERF_DETAIL_ALWAYS_INLINE void count_free(const void* block, uint64_t bytes) noexcept {
  count_free(this_thread_record(), block, bytes);
}

// Whether and how allocations are being counted in this process.
enum counting_mode : int { inactive = 0, interposed = 1, sanitizer_hooks = 2 };
PERF_DETAIL_EXPORT void set_mode(counting_mode mode) noexcept;
PERF_DETAIL_EXPORT counting_mode mode() noexcept;

// The newest record; follow `next` for the older ones. Safe from any thread.
PERF_DETAIL_EXPORT thread_counters* newest_record() noexcept;

}  // namespace detail
}  // namespace alloc
}  // namespace perf

#endif  // PERF_DETAIL_ALLOC_COUNTERS_HPP
