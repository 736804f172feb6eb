// A thread's statistics memory (slots and histogram arena): reserved when it
// attaches, merged into the totals when it exits, cleared in a forked child.
#include "measure/totals.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "core/sites.hpp"
#include "core/startup.hpp"
#include "core/timed_durations.hpp"
#include "core/warnings.hpp"
#include "measure/adaptive_timing.hpp"
#include "measure/probe_checks.hpp"
#include "perf/detail/atomic.hpp"

namespace perf::runtime {
namespace {

// Histogram blocks a thread may hold: 64 MiB of address space, touched as used.
constexpr uint32_t arena_blocks = 1u << 17;
constexpr size_t arena_bytes = size_t{arena_blocks} * detail::histogram_block_size * sizeof(uint64_t);
constexpr size_t slots_bytes = size_t{max_sites} * sizeof(detail::slot);

// What exited threads leave behind. Touched only by thread hooks and under the
// thread list's lock, which guards it.
struct exited_totals {
  std::vector<accumulator> per_site;  // index = site id
  std::vector<binned_totals> binned;  // the same, for /metrics
  std::vector<uint64_t> calls;        // index = row of exited threads
};

exited_totals& exited() {
  static auto* const totals = new exited_totals;  // never destroyed: read at exit
  return *totals;
}

// Address space only: the kernel supplies zeroed pages on first touch, so a
// thread pays for the sites it calls, not for the limit.
void* reserve(size_t bytes) {
  void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED) {
    warn("cannot reserve memory for a measured thread; aborting");
    std::abort();
  }
  return memory;
}

// Has the cache lines of `s` that a snapshot reads (its counts and sums, and which
// blocks of buckets it holds) loaded ahead.
void prefetch_slot(const detail::slot& s) {
  __builtin_prefetch(&s.timed);
  __builtin_prefetch(&s.reference);
  __builtin_prefetch(&s.blocks[0]);
  __builtin_prefetch(&s.used_blocks);
}

// Has the blocks of buckets of `s` loaded ahead: their handles, once those are in the
// cache (prefetch_slot a site before), the arena's first line of each.
void prefetch_blocks(const detail::slot& s, const uint64_t* arena) {
  for (uint64_t blocks = detail::load_relaxed(s.used_blocks); blocks != 0; blocks &= blocks - 1) {
    const unsigned b = static_cast<unsigned>(__builtin_ctzll(blocks));
    __builtin_prefetch(arena + uint64_t{detail::load_relaxed(s.blocks[b])} * detail::histogram_block_size);
  }
}

// The calls of `thread`: its slots' and those of its timed calls still pending.
uint64_t thread_calls(const thread_record& thread, unsigned site_count) {
  uint64_t calls = std::min(__atomic_load_n(&thread.state.pending_count, __ATOMIC_ACQUIRE), detail::pending_capacity);
  for (unsigned id = 1; id < site_count; ++id) {
    const detail::slot& s = thread.state.slots[id];
    calls += detail::load_relaxed(s.timed) + detail::load_relaxed(s.untimed);
  }
  return calls;
}

void reserve_statistics(thread_record& thread) {
  thread.state.slots = static_cast<detail::slot*>(reserve(slots_bytes));
  thread.state.arena = static_cast<uint64_t*>(reserve(arena_bytes));
  thread.state.arena_used = 1;
  thread.state.arena_capacity = arena_blocks;
}

// On the exiting thread, the owner of its pending durations.
void drain_leaving(thread_record& thread) { detail::drain_pending(thread.state); }

void merge_exiting(thread_record& thread, size_t exited_index) {
  exited_totals& totals = exited();
  const unsigned count = site_count();
  if (totals.per_site.size() < count) totals.per_site.resize(count);
  if (totals.binned.size() < count) totals.binned.resize(count);
  const latency_binning& binning = fixed_latency_binning();
  const auto tally = std::make_unique<bucket_tally>();
  for (unsigned id = 1; id < count; ++id) {
    totals.per_site[id].add(thread.state.slots[id], thread.state.arena, *tally);
    tally->move_to(totals.per_site[id].durations);
    totals.binned[id].add(thread.state.slots[id], thread.state.arena, binning);
  }
  if (totals.calls.size() <= exited_index) totals.calls.resize(exited_index + 1);
  totals.calls[exited_index] += thread_calls(thread, count);
}

void release_statistics(thread_record& thread) {
  munmap(thread.state.slots, slots_bytes);
  munmap(thread.state.arena, arena_bytes);
}

// The survivor's statistics cleared; its open activations stay open and end normally.
void clear_in_child(thread_record* survivor) {
  exited() = {};
  if (survivor == nullptr) return;
  detail::thread_state& state = survivor->state;
  const unsigned count = site_count();
  for (unsigned id = 1; id < count; ++id) {
    detail::slot& s = state.slots[id];
    const detail::frame* const outermost = s.outermost;
    std::memset(&s, 0, sizeof s);
    s.outermost = outermost;
  }
  madvise(state.arena, arena_bytes, MADV_DONTNEED);  // zero pages again
  state.arena_used = 1;
  state.pending_count = 0;
}

// The histogram of one site's timed calls, folded so far, over every thread: what the
// tick log's FUNCTION>pQ rules judge calls against (core/timed_durations.hpp).
bucket_counts site_timed_durations(unsigned site) {
  accumulator all;
  visit_threads([&](const thread_list& threads) {
    const std::vector<accumulator>& gone = exited().per_site;
    if (site < gone.size()) all.merge(gone[site]);
    accumulator living;
    const auto tally = std::make_unique<bucket_tally>();
    for (const thread_record* thread : threads.living)
      living.add(thread->state.slots[site], thread->state.arena, *tally);
    tally->move_to(living.durations);
    all.merge(living);
  });
  return all.durations.nonzero_buckets();
}

PERF_RUNTIME_ON_START(register_statistics_hooks) {
  set_timed_durations_source(site_timed_durations);
  add_thread_hooks({.attach = reserve_statistics,
                    .leave = drain_leaving,
                    .exit = merge_exiting,
                    .release = release_statistics,
                    .fork_child = clear_in_child});
}

}  // namespace

std::vector<accumulator> site_totals(const thread_list& threads, unsigned site_count) {
  std::vector<accumulator> totals = exited().per_site;
  totals.resize(site_count);
  // A living thread may finish calls while it is read: its slots first, then its
  // pending durations. The living threads' timed calls are taken as the durations
  // read of them (histograms and pending), so that each count agrees with its
  // histogram, which perf-report checks; but where an arena is full its histograms
  // miss durations, and the slots' counts stay. timed_not_read[id]: the exited
  // threads' timed calls less their durations.
  std::vector<uint64_t> timed_not_read(site_count);
  for (unsigned id = 1; id < site_count; ++id) timed_not_read[id] = totals[id].timed - totals[id].durations.count();
  bool histograms_whole = true;
  for (const thread_record* thread : threads.living)
    histograms_whole &= detail::load_relaxed(thread->state.arena_used) < thread->state.arena_capacity;
  const auto tally = std::make_unique<bucket_tally>();
  for (unsigned id = 1; id < site_count; ++id) {
    // The next site's slots asked for while this one's are added: the reads wait on
    // memory, a slot of each thread in a page of its own, not on the arithmetic.
    for (const thread_record* thread : threads.living) {
      if (id + 2 < site_count) prefetch_slot(thread->state.slots[id + 2]);
      if (id + 1 < site_count) prefetch_blocks(thread->state.slots[id + 1], thread->state.arena);
    }
    for (const thread_record* thread : threads.living)
      totals[id].add(thread->state.slots[id], thread->state.arena, *tally);
    tally->move_to(totals[id].durations);
  }
  for (const thread_record* thread : threads.living) add_pending_durations(thread->state, totals);
  if (histograms_whole)
    for (unsigned id = 1; id < site_count; ++id) {
      accumulator& a = totals[id];
      if (a.timed == 0) continue;
      const uint64_t untimed = a.calls - a.timed;
      a.timed = timed_not_read[id] + a.durations.count();
      a.calls = a.timed + untimed;
    }
  return totals;
}

std::vector<accumulator> collect_site_totals() {
  std::vector<accumulator> totals;
  const unsigned count = site_count();
  visit_threads([&](const thread_list& threads) { totals = site_totals(threads, count); });
  return totals;
}

binned_function_totals read_binned_totals(const thread_list& threads, const std::vector<unsigned>& rows) {
  if (detail::current_thread != nullptr) detail::drain_pending(*detail::current_thread);
  const unsigned count = static_cast<unsigned>(rows.size());
  const latency_binning& binning = fixed_latency_binning();
  binned_function_totals read;
  const std::vector<binned_totals>& gone = exited().binned;
  read.per_site.assign(gone.begin(), gone.begin() + std::min<size_t>(gone.size(), count));
  read.per_site.resize(count);
  read.thread_calls = exited().calls;
  read.thread_calls.resize(threads.exited.size());
  // Thread by thread, each thread's slots in order: one pass over its memory.
  for (const thread_record* thread : threads.living) {
    for (unsigned id = 1; id < count; ++id)
      read.per_site[id].add(thread->state.slots[id], thread->state.arena, binning);
    read.thread_calls.push_back(thread_calls(*thread, count));
  }
  for (const thread_record* thread : threads.living) add_pending_durations(thread->state, read.per_site, binning);
  // Each row's sites merged into its first site's, in the order of the ids.
  for (unsigned id = 1; id < count; ++id)
    if (rows[id] != id) read.per_site[rows[id]].merge(read.per_site[id]);
  return read;
}

std::vector<uint64_t> calls_per_thread(const thread_list& threads) {
  std::vector<uint64_t> calls = exited().calls;
  calls.resize(threads.exited.size());
  const unsigned count = site_count();
  for (const thread_record* thread : threads.living) calls.push_back(thread_calls(*thread, count));
  return calls;
}

// Not in an unnamed namespace: a function without linkage has no mangled name in the
// debug information where it is inlined, and the sampler, which tells perf's code by its
// mangled name (sampler/code_owner.hpp), would charge samples taken in it to the program
// that links the runtime statically.
namespace folding {

using detail::slot;
using detail::store_relaxed;
using detail::thread_state;

// Adds `count` durations to bucket `bucket` of the histogram of `target`, a slot of
// `thread` (nothing once the arena is full).
void add_to_histogram(thread_state& thread, slot& target, unsigned bucket, uint64_t count) noexcept {
  using detail::histogram_block_size;
  const unsigned block = bucket / histogram_block_size;
  if (PERF_DETAIL_UNLIKELY(target.blocks[block] == 0)) {
    const uint32_t handle = thread.arena_used;
    if (handle == thread.arena_capacity) return;   // full: the histogram misses them
    store_relaxed(thread.arena_used, handle + 1);  // read by site_totals()
    store_relaxed(target.blocks[block], handle);
    store_relaxed(target.used_blocks, target.used_blocks | uint64_t{1} << block);
  }
  uint64_t& counter =
      thread.arena[uint64_t{target.blocks[block]} * histogram_block_size + bucket % histogram_block_size];
  store_relaxed(counter, counter + count);
}

// Folds the pending entries from `entries` on that are of the first one's site into
// its slot `target` (count, extremes, moments, histogram, and whether it had callees),
// up to `end`, and returns where they end. In registers, written once (a bucket's
// count too, where durations repeat, as a short function's do): atomic stores in the
// loop made GCC reload every field, twice the time per duration; and the squares are
// summed in two halves, each add waiting on half as many.
const uint64_t* fold_run(thread_state& thread, slot& target, const uint64_t* entries, const uint64_t* end) noexcept {
  using detail::pending_duration_mask;
  using detail::pending_site_shift;
  const uint64_t site = entries[0] >> pending_site_shift;
  const uint64_t calls = target.timed;
  const uint64_t first = entries[0] & pending_duration_mask;
  const uint64_t reference = calls == 0 ? first : target.reference;
  uint64_t least = calls == 0 ? first : target.min, most = calls == 0 ? first : target.max;
  int64_t sum_deviation = 0;
  double squares = 0, other_squares = 0;  // alternately
  uint64_t callees = 0;
  unsigned bucket = detail::bucket_index(first);
  uint64_t in_bucket = 0;
  const uint64_t* entry = entries;
  for (; entry != end && *entry >> pending_site_shift == site; ++entry) {
    const uint64_t duration = *entry & pending_duration_mask;
    callees |= *entry;
    least = std::min(least, duration);
    most = std::max(most, duration);
    const int64_t deviation = static_cast<int64_t>(duration - reference);
    sum_deviation += deviation;
    squares += static_cast<double>(deviation) * static_cast<double>(deviation);
    std::swap(squares, other_squares);
    const unsigned b = detail::bucket_index(duration);
    if (b != bucket) {
      add_to_histogram(thread, target, bucket, in_bucket);
      bucket = b;
      in_bucket = 0;
    }
    ++in_bucket;
  }
  add_to_histogram(thread, target, bucket, in_bucket);
  if (calls == 0) store_relaxed(target.reference, reference);
  store_relaxed(target.min, least);
  store_relaxed(target.max, most);
  store_relaxed(target.sum_deviation, target.sum_deviation + sum_deviation);
  store_relaxed(target.sum_squared_deviation, target.sum_squared_deviation + (squares + other_squares));
  store_relaxed(target.timed, calls + static_cast<uint64_t>(entry - entries));
  if ((callees & detail::pending_callees_bit) != 0 && target.had_callees == 0) stop_sampling(target);
  return entry;
}

}  // namespace folding
}  // namespace perf::runtime

// The pending calls are folded into their slots (count, extremes, moments, histogram)
// a run of one site's at a time, on the owner thread; then, for the sites that do not
// time every call, adaptive timing's bookkeeping (measure/adaptive_timing.hpp): a site
// whose call had measured callees is never sampled; a sampled site's timed durations
// make its estimate (or are counted apart); one whose timed calls reached its next
// review is reviewed. Then the probe's cost is checked, where it is time to
// (measure/probe_checks.hpp).
void perf::detail::drain_pending(thread_state& thread) noexcept {
  const uint64_t* const end = thread.pending + thread.pending_count;
  for (const uint64_t* run = thread.pending; run != end;)
    run = runtime::folding::fold_run(thread, thread.slots[*run >> pending_site_shift], run, end);
  for (const uint64_t* entry = thread.pending; entry != end; ++entry) {
    if ((*entry & pending_time_all_bit) != 0) continue;
    slot& target = thread.slots[*entry >> pending_site_shift];
    if (target.period != 0) runtime::take_sampled_duration(target, *entry & pending_duration_mask);
    if (thread.sampling != 0 && target.timed >= target.next_review) runtime::review_timing(thread, target);
  }
  __atomic_store_n(&thread.pending_count, 0u, __ATOMIC_RELEASE);
  runtime::check_probe_cost(thread);
}
