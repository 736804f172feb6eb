// The heap sampler (PERF_HEAP_SAMPLE): which allocations are sampled, and what a
// sampled allocation and the free of a sampled block do. The allocation path's part
// (a per-thread byte countdown, a filter bit on free) is inline in
// perf/detail/alloc_counters.hpp; this file holds the out-of-line rest.
//
// Each thread's countdown is drawn from an exponential distribution of mean
// PERF_HEAP_SAMPLE bytes: the sampled points form a Poisson process over the bytes the
// thread requests, so an allocation of s bytes is sampled with probability
// p = 1 - exp(-s/mean) whatever came before it, and stands for s/p bytes and 1/p
// allocations (docs/allocations.md, "Sampling").
//
// The tables (heap/internal/) are mapped when sampling starts and guarded by one spin
// lock, taken only by sampled allocations, frees of sampled blocks (and the rare frees
// the filter lets through) and copies: no allocation and no free is made under it.
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <cmath>
#include <cstring>

#include "alloc/heap_sampling_hook.hpp"
#include "core/random_bits.hpp"
#include "core/settled_config.hpp"
#include "core/stack_unwind.hpp"
#include "core/startup.hpp"
#include "core/warnings.hpp"
#include "heap/heap_sample_config.hpp"
#include "heap/internal/live_blocks.hpp"
#include "heap/internal/sampling.hpp"
#include "perf/detail/alloc_counters.hpp"

namespace perf::runtime {
namespace {

using heap_internal::live_blocks;
using heap_internal::site_record;
using heap_internal::site_table;

// Before start-up has read PERF_HEAP_SAMPLE, a countdown that ran out stays at zero
// (the thread's next allocation asks again); once it has, a countdown is drawn, or,
// with sampling off, put out of reach.
// At exit, sampling stops (the outputs' own allocations are not the program's), while
// frees still leave the live set.
enum sampling_state : int { unsettled = 0, off = 1, on = 2, stopped = 3 };
int state = unsettled;
uint64_t mean_bytes = 0;

bool locked = false;
site_table sites;
live_blocks live;
uint64_t samples_beyond_sites = 0;
// Times the live set was thinned: each halved it when it was full, so that a sampled
// block is now kept in it with probability 2^-thinnings (docs/allocations.md, "Sampling").
uint32_t thinnings = 0;

// From fork()'s prepare handler to its parent or child handler, the lock is held for
// the forking thread, whose own allocations meanwhile (other fork handlers', such as
// ThreadSanitizer's in the child, which come before ours) pass through it: nothing is
// half-recorded then.
bool held_for_fork = false;
pthread_t forking_thread = 0;

bool forking_thread_holds_lock() noexcept {
  return __atomic_load_n(&held_for_fork, __ATOMIC_ACQUIRE) &&
         pthread_equal(__atomic_load_n(&forking_thread, __ATOMIC_RELAXED), pthread_self());
}

void lock() noexcept {
  if (forking_thread_holds_lock()) return;
  while (__atomic_test_and_set(&locked, __ATOMIC_ACQUIRE)) sched_yield();
}
void unlock() noexcept {
  if (forking_thread_holds_lock()) return;
  __atomic_clear(&locked, __ATOMIC_RELEASE);
}

// The calling thread's part (zero-initialized TLS, nothing to destroy).
struct thread_sampling {
  uint64_t random;  // splitmix64's state; 0: not seeded yet

  bool drawn;     // its countdown was drawn once
  unsigned busy;  // nonzero: the sampler's own work, whose allocations are not sampled
};
PERF_DETAIL_TLS thread_sampling this_thread;

// Marks the calling thread's sampler work while it lives.
class sampler_work {
 public:
  explicit sampler_work(thread_sampling& t) noexcept : t_(t) { ++t_.busy; }
  ~sampler_work() { --t_.busy; }
  sampler_work(const sampler_work&) = delete;
  sampler_work& operator=(const sampler_work&) = delete;

 private:
  thread_sampling& t_;
};

// splitmix64: a Weyl sequence, mixed.
uint64_t next_random(thread_sampling& t) noexcept {
  if (t.random == 0) t.random = fresh_seed(&t);
  return mix64(t.random += 0x9E3779B97F4A7C15ull);
}

// Bytes to the next sampled point: floor of an exponential variate of mean
// `mean_bytes`, so that an allocation of s bytes is sampled when the point falls in
// its s bytes, with probability 1 - exp(-s/mean).
int64_t draw_countdown(thread_sampling& t) noexcept {
  const double bytes = -std::log(uniform_above_zero(next_random(t))) * static_cast<double>(mean_bytes);
  return bytes < 0x1p62 ? static_cast<int64_t>(bytes) : int64_t{1} << 62;
}

// The inverse of the probability that an allocation of `requested` bytes is sampled.
double inverse_probability(uint64_t requested) noexcept {
  return -1.0 / std::expm1(-static_cast<double>(requested) / static_cast<double>(mean_bytes));
}

// Adds `weight` times the estimate of one live sampled block of `requested` bytes to
// `site` (a negative weight takes it away).
void add_live_estimate(site_record& site, uint64_t requested, double weight) noexcept {
  const double objects = weight * inverse_probability(requested);
  site.live_objects += objects;
  site.live_bytes += objects * static_cast<double>(requested);
}

// What a block of the live set weighs: the sampled blocks it stands for.
double weight(const live_blocks::block& b) noexcept { return std::ldexp(1.0, static_cast<int>(b.thinned)); }

// `b`, leaving the live set (freed, or its address reused), leaves its site's estimate.
void forget_live(const live_blocks::block& b) noexcept {
  add_live_estimate(sites[b.site], b.requested, -weight(b));
  --sites[b.site].live_samples;
}

// Halves the live set, once full, by a fair coin per block: each one kept stands for
// twice the blocks it stood for, so that every live estimate stays unbiased, on half
// the samples. Under the lock.
void thin_live_set(thread_sampling& t) noexcept {
  ++thinnings;
  uint64_t coins = 0;
  unsigned left = 0;
  live.for_each_live([&](size_t slot, live_blocks::block& b) {
    if (left == 0) coins = next_random(t), left = 64;
    const bool kept = (coins & 1) != 0;
    coins >>= 1, --left;
    if (!kept) return forget_live(live.remove(slot));
    add_live_estimate(sites[b.site], b.requested, weight(b));  // its weight doubles
    ++b.thinned;
  });
}

// Puts the sampled `block` of site `index` in the live set, at the set's current
// thinning: kept with probability 2^-thinnings, for 2^thinnings blocks. A full set is
// thinned first. Under the lock.
void track_live(thread_sampling& t, uintptr_t block, uint64_t requested, uint32_t index) noexcept {
  // A block freed where the interposer does not see it left its address: it goes.
  if (const size_t stale = live.find(block); stale != live_blocks::not_found) forget_live(live.remove(stale));
  uint32_t passed = 0;  // thinnings decided for it: a fair coin each
  for (;;) {
    for (; passed < thinnings; ++passed)
      if ((next_random(t) & 1) == 0) return;
    if (live.insert(block, {requested, index, thinnings})) {
      add_live_estimate(sites[index], requested, std::ldexp(1.0, static_cast<int>(thinnings)));
      ++sites[index].live_samples;
      return;
    }
    if (thinnings == 63) return;  // (a set of 2^15 blocks cannot fill 63 times over)
    thin_live_set(t);
  }
}

// Records the sampled allocation of `block` with the calling thread's stack.
__attribute__((noinline)) void record_sample(thread_sampling& t, const void* block, uint64_t requested) noexcept {
  // One past the kept depth, to see truncation.
  constexpr unsigned room = heap_internal::site_frames + 1;
  uintptr_t frames[room];
  unsigned depth = unwind_calling_thread(frames, room);
  const bool truncated = depth == room || (depth != 0 && frames[depth - 1] == truncated_frame);
  if (depth == room) depth = heap_internal::site_frames;
  if (depth != 0 && frames[depth - 1] == truncated_frame) --depth;
  const double objects = inverse_probability(requested);
  lock();
  const uint32_t index = sites.find_or_add(frames, depth, truncated);
  if (index == site_table::none) {
    ++samples_beyond_sites;
  } else {
    site_record& site = sites[index];
    ++site.samples;
    site.allocated_objects += objects;
    site.allocated_bytes += objects * static_cast<double>(requested);
    track_live(t, reinterpret_cast<uintptr_t>(block), requested, index);
  }
  unlock();
}

void prepare_fork() {
  lock();
  __atomic_store_n(&forking_thread, pthread_self(), __ATOMIC_RELAXED);
  __atomic_store_n(&held_for_fork, true, __ATOMIC_RELEASE);
}
void after_fork() {
  __atomic_store_n(&held_for_fork, false, __ATOMIC_RELEASE);
  unlock();
}

// alloc::detail::sample_allocation, once registered: see alloc/heap_sampling_hook.hpp.
void sample_heap_allocation(alloc::detail::thread_counters& record, const void* block, uint64_t requested) noexcept {
  const int now = __atomic_load_n(&state, __ATOMIC_ACQUIRE);
  if (now != on) {
    record.sample_countdown = now == unsettled ? 0 : INT64_MAX;
    return;
  }
  thread_sampling& t = this_thread;
  if (!t.drawn) {  // the countdown ran from zero: the thread's first draw decides
    t.drawn = true;
    record.sample_countdown += draw_countdown(t);
    if (record.sample_countdown >= 0) return;
  }
  record.sample_countdown = draw_countdown(t);
  if (t.busy != 0) return;
  const sampler_work its_own(t);
  record_sample(t, block, requested);
}

void forget_heap_block(const void* block) noexcept {
  const auto address = reinterpret_cast<uintptr_t>(block);
  if (live.find(address) == live_blocks::not_found) return;  // the filter's false alarm
  lock();
  // Only this free removes this block: it is still there.
  const size_t slot = live.find(address);
  if (slot != live_blocks::not_found) forget_live(live.remove(slot));
  unlock();
}

PERF_RUNTIME_ON_START(start_heap_sampling) {
  // Registered whatever the configuration: while sampling is off, a thread's countdown
  // becomes INT64_MAX, and its allocations stop asking.
  set_heap_sampling_hook({sample_heap_allocation, forget_heap_block});
  const heap_sample_config& config = settled_config<heap_sample_config, parse_heap_sample_config>();
  if (config.bytes != 0 && sites.make() && live.make()) {
    mean_bytes = config.bytes;
    if (const std::string problem = prepare_unwinder(); !problem.empty())
      warn("the heap profile's stacks are empty: " + problem);
    // The child keeps consistent tables: no fork happens while a sample is half recorded.
    pthread_atfork(prepare_fork, after_fork, after_fork);
    add_exit_quiet([] { __atomic_store_n(&state, int{stopped}, __ATOMIC_RELEASE); });
    alloc::detail::check_frees_of_sampled_blocks();  // before any block is sampled
    __atomic_store_n(&state, int{on}, __ATOMIC_RELEASE);
  } else {
    __atomic_store_n(&state, int{off}, __ATOMIC_RELEASE);
  }
}

}  // namespace

namespace heap_internal {

sampled_sites copy_sampled_sites() {
  sampled_sites copy;
  const int now = __atomic_load_n(&state, __ATOMIC_ACQUIRE);
  if (now != on && now != stopped) return copy;
  copy.sample_bytes = mean_bytes;
  const sampler_work its_own(this_thread);
  for (;;) {
    // Room made before the lock, which no allocation may be made under.
    lock();
    const uint32_t wanted = sites.size();
    unlock();
    copy.sites.resize(wanted + 16);
    lock();
    const uint32_t count = sites.size();
    const bool fits = count <= copy.sites.size();
    if (fits) {
      std::memcpy(static_cast<void*>(copy.sites.data()), sites.records(), count * sizeof(site_record));
      copy.samples_beyond_sites = samples_beyond_sites;
      copy.live_set_thinnings = thinnings;
    }
    unlock();
    if (fits) {
      copy.sites.resize(count);
      return copy;
    }
  }
}

}  // namespace heap_internal
}  // namespace perf::runtime
