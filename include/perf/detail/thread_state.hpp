// The per-thread block the hot path writes, and the slow paths that create it.
// Not part of the public API.
//
// Each thread owns one block: a slot of statistics per measured site, indexed by
// the site's id, and an arena of histogram blocks. Only the owning thread writes;
// the runtime reads concurrently (snapshots, the exit report), so every field that
// another thread may read is stored with store_relaxed (perf/detail/atomic.hpp).
#ifndef PERF_DETAIL_THREAD_STATE_HPP
#define PERF_DETAIL_THREAD_STATE_HPP

#include <stddef.h>
#include <stdint.h>

#include "perf/detail/alloc_counters.hpp"
#include "perf/detail/atomic.hpp"
#include "perf/detail/clock.hpp"
#include "perf/detail/compiler.hpp"
#include "perf/detail/histogram_index.hpp"
#include "perf/detail/tick_ring.hpp"

namespace perf {
namespace detail {

// Whether untimed_call is written in assembly (x86-64, GCC 9 or Clang 14 and later):
// `asm inline`, which the compiler's inliner counts as one instruction, so that a
// scope can inline the fast path without making the measured function look larger to
// the inliner (see PERF_DETAIL_INLINE_FAST_PATH in perf/measure.hpp).
#if defined(__x86_64__) && (defined(__clang__) ? __clang_major__ >= 14 : __GNUC__ >= 9)
#define PERF_DETAIL_ASM_FAST_PATH 1
#else
#define PERF_DETAIL_ASM_FAST_PATH 0
#endif

// One measured place in the source. Constant-initialized, so a function-local
// `static site` needs no guard variable; `key` is assigned on first use.
struct site {
  const char* name;
  const char* file;
  unsigned line;
  unsigned key;  // 0 until registered; then row << site_id_bits | id (see site_key)
};

// A registered site's key packs its id, which indexes the slots, and its row: the
// id of the first site registered with the same name and location (a template's
// instantiations share one). Recursion is counted per row, so that a row's total
// counts the time spent in any of its sites once.
constexpr unsigned site_id_bits = 16;
PERF_DETAIL_ALWAYS_INLINE unsigned site_id(unsigned key) noexcept { return key & ((1u << site_id_bits) - 1); }
PERF_DETAIL_ALWAYS_INLINE unsigned site_row(unsigned key) noexcept { return key >> site_id_bits; }
PERF_DETAIL_ALWAYS_INLINE constexpr unsigned site_key(unsigned id, unsigned row) noexcept {
  return row << site_id_bits | id;
}

// Statistics of one site in one thread, in clock ticks. Durations, extremes,
// moments, totals and histograms are of the timed calls; `untimed` counts the calls
// an adaptive site only counted (see untimed_call), so that timed + untimed is the
// exact count. A timed call's total, self time and allocations are added when it
// ends; its count, extremes, moments and histogram bucket when its duration leaves
// thread_state::pending (drain_pending): a reader of a living thread adds the
// durations still pending.
struct alignas(64) slot {
  uint64_t timed;    // calls timed: durations recorded (folded from pending)
  uint64_t untimed;  // calls counted without a duration
  // Adaptive timing (owner only; docs/performance.md, "Adaptive timing"): the calls
  // left until the next timed one (at most 1: the next call is timed), the mean of
  // the geometric draws of that countdown (0: every call timed), and what an untimed
  // call adds to its caller's callee time (fixed point, see probe_fraction_bits).
  uint32_t countdown;
  uint32_t period;
  uint64_t untimed_estimate;
  uint64_t total;  // outermost activations of the row only: recursion is counted once
  uint64_t self;   // minus the time of measured callees: a sum of signed parts, modulo 2^64 (see finish)
  uint64_t min;
  uint64_t max;
  // Variance by shifted data: deviations from the first duration seen, whose sums
  // stay small and exact where the plain sum of squares would lose its digits.
  uint64_t reference;
  int64_t sum_deviation;
  double sum_squared_deviation;
  // Heap allocations (perf/alloc.hpp) in outermost activations of the row, callees
  // included: like total, recursion is counted once.
  uint64_t alloc_count;
  uint64_t alloc_bytes;
  // As a row's first site: the row's outermost open activation on this thread, or
  // null, and its place in the thread's chain (thread_state::chain): it is open only
  // while the chain holds it there (see open() in perf/measure.hpp). Only compared
  // with a frame's address, never dereferenced.
  const struct frame* outermost;
  uint32_t outermost_depth;
  // Adaptive timing's bookkeeping, done when pending durations are drained (owner
  // writes): the timed count at which the site's timing is next reviewed (owner only),
  // and whether a timed call of it ever had a measured callee (then it is never
  // sampled, and its row is no leaf: snapshots read it).
  uint64_t next_review;
  uint32_t had_callees;
  // What the untimed calls credited their callers, which is the site's self time for
  // them (runtime::credited_ticks): `credited` units (fixed point) up to the
  // `credited_untimed`-th untimed call, each later one untimed_estimate. Written by
  // the owner whenever the estimate changes, inside a `credit_version` that is odd
  // while it writes them (read by snapshots; the fast path adds nothing to them).
  uint32_t credit_version;
  uint64_t credited;
  uint64_t credited_untimed;
  // Of that credit, in ticks, what exceeded the duration of the activations it was
  // given to (see finish): taken back from the site's figures.
  uint64_t over_credited;
  // A sampled site's timed calls, sorted at drain time (owner writes, snapshots read;
  // runtime::take_sampled_duration): the bulk, whose means over blocks of
  // recent_calls calls (the current one: recent_count calls, recent_sum ticks) make
  // `bulk_mean` (fixed point), the median of the last three blocks' (`block_means`);
  // and the tail, longer than outlier_factor bulk means: their count and their
  // deviations from `reference` (as sum_deviation's). A rare tail (a preemption, an
  // interrupt) is counted apart, never extrapolated to the untimed calls; a frequent
  // one is the function's own and is.
  uint64_t recent_sum;
  uint32_t recent_count;
  uint32_t blocks_seen;
  uint64_t block_means[3];
  uint64_t bulk_mean;
  uint64_t outliers;
  int64_t outlier_deviation;
  double outlier_squared_deviation;
  uint32_t blocks[histogram_blocks];  // arena block per bucket block; 0 = none
  // Bit b: blocks[b] is set (set after it): what a snapshot reads instead of the
  // whole array. In the padding the alignment left (sizeof(slot) stays 512).
  uint64_t used_blocks;
};
static_assert(sizeof(slot) == 512, "a slot fills 8 cache lines");

// A measured activation, living in the scope object on the caller's stack (in a
// coroutine's frame, on a fiber's stack). The probe reads and writes only the frame of
// the activation it opens or closes, never another one: an activation that a longjmp
// abandoned is never written into, whatever the stack holds there now.
struct frame {
  slot* target;
  uint64_t start;
  uint64_t callee_mark;  // the thread's callee_time at the start
  uint64_t alloc_count;  // the thread's allocation counters at the start
  uint64_t alloc_bytes;
  uint64_t probe_mark;   // the thread's probes_finished + probe_offset at the start
  uint64_t credit_mark;  // the thread's credited at the start
  unsigned credit_site;  // the thread's credit_site at the start
  unsigned site;         // id of target's site
  unsigned row;          // row of target's site: the slot holding the row's outermost activation
  unsigned depth;        // its place in the thread's chain (thread_state::chain); chain_capacity: beyond it
};

// The thread's chain of open timed activations, outermost first: [0] lies above every
// stack and holds none, [1, depth) the open ones (see open() in perf/measure.hpp).
// Activations nested deeper than chain_capacity - 1 are not held (their frames' depth
// is chain_capacity, [chain_capacity] takes their entries unread): they are taken as
// nested, unchecked, while the chain stays full.
constexpr unsigned chain_capacity = 128;
struct open_activation {
  uintptr_t stack;    // the measured function's stack pointer (open()'s `stack`)
  uintptr_t address;  // the frame's: compared only, never dereferenced
  unsigned site;      // its site's id: the sampler reads it
};

// Durations wait here, packed as (site id << 48) | flags | duration, until the owner
// folds a batch of them into their slots: counts, extremes, moments, histograms and
// adaptive timing's bookkeeping cost, right after the clock read, several times what
// they cost in a loop of their own (runtime_bench's floor: 1.6 instead of 1.1 on an
// AMD EPYC). The flags: the call had measured callees (adaptive timing samples only
// leaves); its site times every call (a _TIME_ALL form: adaptive timing leaves it be).
constexpr unsigned pending_capacity = 64;
constexpr unsigned pending_site_shift = 48;
constexpr uint64_t pending_callees_bit = uint64_t{1} << 47;
constexpr uint64_t pending_time_all_bit = uint64_t{1} << 46;
constexpr uint64_t pending_duration_mask = pending_time_all_bit - 1;  // and the longest (a day at 3 GHz)

// Probe compensation (PERF_COMPENSATE) counts in fixed point: 2^probe_fraction_bits
// units per clock tick, so that a cost of 47.6 ticks is not rounded per call.
constexpr unsigned probe_fraction_bits = 8;

struct thread_state {
  // Nonzero while the thread runs the probe's bookkeeping or the runtime's own work
  // (see begin_busy): a measured call that begins meanwhile (in a signal handler,
  // or in a program's allocator the runtime called) records nothing. Written by the
  // owner and read by the owner's signal handlers only.
  uint32_t busy;
  // Entries [0, depth) of `chain` are the chain (written by the owner; its signal
  // handlers, the sampler's among them, read it).
  uint32_t depth = 1;
  // Self time without a chain of frames, in fixed point (probe_fraction_bits): each
  // finished timed call sets this to its frame's callee_mark plus its compensated
  // duration (signed, modulo 2^64: see finish) and one unit, each untimed call adds
  // its site's untimed_estimate, so that an open activation's measured callees took
  // callee_time - its callee_mark, which is nonzero when it had any.
  uint64_t callee_time;
  // The estimates untimed calls added to callee_time (fixed point), since the innermost
  // open activation's frame noted it (credit_mark): its direct untimed callees' credit;
  // and the site of the innermost open activation's last direct untimed callee, which
  // finish() charges with what that credit came to beyond the activation's own
  // duration (slot::over_credited). An activation's finish() puts back the site its
  // frame noted (frame::credit_site), so that untimed calls nested in a timed callee
  // are never charged with its caller's excess. Owner only.
  uint64_t credited;
  unsigned credit_site;
  slot* slots;      // indexed by site id
  tick_ring* ring;  // null when tick logging is off (PERF_TICKS=off)
  clock_source clock;
  uint32_t pending_count;
  // What the probe costs, in fixed point (0 when compensation is off): a measured
  // call's cost to its caller, and that minus the part of it inside the call's own
  // duration. Set when the thread attaches; only the owner reads them.
  uint64_t probe_outside;
  uint64_t probe_offset;     // probe_outside - probe_inside - half a tick (finish() then rounds), modulo 2^64
  uint64_t probes_finished;  // probe_outside (probe_untimed) summed over the thread's finished (untimed) calls
  uint64_t probe_untimed;    // an untimed call's cost to its caller, in fixed point (0 when compensation is off)
  // What a sampled leaf's timed call has inside its duration beyond probe_inside, in
  // fixed point, modulo 2^64 (0 when compensation is off): coming once in many untimed
  // calls, it runs the timed path with its branches mispredicted and its code cold.
  uint64_t probe_sampled_extra;
  // Adaptive timing (PERF_TIMING=adaptive): nonzero when this thread's leaves may be
  // sampled; the state of the generator of their countdowns (xorshift64, never 0).
  uint32_t sampling;
  uint64_t random;
  uint64_t* arena;      // histogram blocks of histogram_block_size counters
  uint32_t arena_used;  // blocks handed out; block 0 is never used
  uint32_t arena_capacity;
  uint64_t pending[pending_capacity];
  open_activation chain[chain_capacity + 1] = {{~uintptr_t{0}, 0, 0}};
};

// Whether the first `length` entries of the chain of `thread` hold the frame at
// `address` as entry `depth` (a frame beyond chain_capacity: whether the chain is full).
PERF_DETAIL_ALWAYS_INLINE bool chain_holds(const thread_state& thread, uint32_t length, uint32_t depth,
                                           uintptr_t address) noexcept {
  if (PERF_DETAIL_LIKELY(depth < length)) return thread.chain[depth].address == address;
  return depth == chain_capacity && length == chain_capacity;
}

// The site of the innermost activation in the chain of `thread` that may enclose code
// running with stack pointer `sp`, or 0: one below `sp` was abandoned or left on a
// stack switched away from, and so was one off the thread's own stack [low, high)
// where `sp` lies on it (a fiber's, a coroutine's; low = high: not known). For the
// owner's signal handlers (the sampler): whatever instruction of the probe one
// interrupted, the chain's entries hold sites (an earlier activation's, perhaps) and
// [0] ends the walk.
inline unsigned enclosing_site(const thread_state& thread, uintptr_t sp, uintptr_t low = 0,
                               uintptr_t high = 0) noexcept {
  const bool on_own_stack = sp - low < high - low;
  for (uint32_t depth = __atomic_load_n(&thread.depth, __ATOMIC_RELAXED) - 1; depth != 0; --depth) {
    const open_activation& entry = thread.chain[depth];
    if (entry.stack >= sp && (!on_own_stack || entry.stack - low < high - low)) return entry.site;
  }
  return 0;
}

// Whether the chain of `thread` holds `f`, the frame of an activation opened on it:
// one the chain dropped (see open() in perf/measure.hpp) ends off it, and its end may
// not touch the thread's running values, which its frame's marks no longer match.
PERF_DETAIL_ALWAYS_INLINE bool holds(const thread_state& thread, const frame& f) noexcept {
  return chain_holds(thread, thread.depth, f.depth, reinterpret_cast<uintptr_t>(&f));
}

extern PERF_DETAIL_TLS thread_state* current_thread PERF_DETAIL_EXPORT;

// Creates and registers the calling thread's block on its first measured call or
// tick, or returns null (recording nothing) when the thread is inside the runtime's
// own work: it may hold the lock that attaching takes.
PERF_DETAIL_EXPORT thread_state* attach_thread() noexcept;
// Gives `s` its key (and returns it); safe to call from many threads at once. The
// calling thread's block is busy meanwhile. `code` is an address inside the measured
// function (the return address of its call of begin()): the sampler charges a sample
// taken in that function to `s`, where an untimed call left the caller's site open
// (runtime/sampler/measured_function.hpp).
PERF_DETAIL_EXPORT unsigned register_site(site& s, const void* code) noexcept;
// Adds the pending durations of `thread` to their slots, now and then checks the probe (probe_checks.hpp); owner only.
PERF_DETAIL_EXPORT void drain_pending(thread_state& thread) noexcept;
// Counts a switched call of site `id` (see end() in perf/measure.hpp): one that ended
// on another thread or off its thread's chain. Any thread; async-signal-safe.
PERF_DETAIL_EXPORT void count_switched_call(unsigned id) noexcept;

// Draws the next countdown of a sampled site whose period is `period` (above 0): a
// geometric number of calls with mean `period`, at least 1; 1 while a tracer is
// attached to the USDT probes (perf/detail/usdt.hpp), so that every call from the
// site's next timed one on is timed and passes them. Called by the owner.
PERF_DETAIL_EXPORT uint32_t next_countdown(thread_state& thread, uint32_t period) noexcept;

// Records one timed call of site `site` (its slot `target`) lasting `duration`;
// `flags`: pending_callees_bit, pending_time_all_bit or both. Its count, extremes,
// moments and histogram are folded in by drain_pending: when the buffer is full, and
// for a site's first timed call on the thread at once, so that a slot with calls has a
// folded one (call_totals reads a slot only then).
PERF_DETAIL_ALWAYS_INLINE void add_sample(thread_state& thread, slot& target, unsigned site, uint64_t duration,
                                          uint64_t flags = 0) noexcept {
  const uint32_t pending = thread.pending_count;
  store_relaxed(thread.pending[pending], (uint64_t{site} << pending_site_shift) | flags |
                                             (duration < pending_duration_mask ? duration : pending_duration_mask));
  __atomic_store_n(&thread.pending_count, pending + 1, __ATOMIC_RELEASE);
  if (PERF_DETAIL_UNLIKELY(pending + 1 == pending_capacity || target.timed == 0)) drain_pending(thread);
}

// Ends the activation `f` at clock value `end`. Its compensated duration is the
// time elapsed (never below zero, whatever a clock that steps back, a TSC read on
// another core, makes of it) less the probe's cost within the activation: its own
// inside part and the whole cost of every measured call made inside it. For a short
// call that may come out below zero, by the compensation's error and the clock's
// granularity; signed, it is what the caller counts as its callee's time and what
// self times sum (self time is a sum of signed parts, read floored at zero), so that
// neither is biased. The call's distribution and its row's total take it raised to
// zero. (Raising each call to its callees' time instead summed a recursion's
// thousands of roundings up into its total: fib(20) at twice its true time;
// docs/performance.md, "Recursion".) `flags`: pending_time_all_bit for a site that
// times every call. Returns the duration the call's distribution takes.
PERF_DETAIL_ALWAYS_INLINE uint64_t finish(thread_state& thread, frame& f, uint64_t end, uint64_t flags = 0) noexcept {
  const uint64_t probes = thread.probes_finished + thread.probe_outside;
  thread.probes_finished = probes;
  // Without branches: a short call's figures fall either side of zero at random, and
  // mispredictions cost the probe more than the calibration's longer calls show.
  const uint64_t elapsed = (end - f.start) & (0 - static_cast<uint64_t>(end > f.start));
  const uint64_t compensated = elapsed - ((probes - f.probe_mark) >> probe_fraction_bits);
  const uint64_t duration = static_cast<int64_t>(compensated) > 0 ? compensated : 0;
  // The callees' time in fixed point, rounded to whole ticks (an arithmetic shift).
  const uint64_t callees = thread.callee_time - f.callee_mark;
  const uint64_t callee_ticks = static_cast<uint64_t>(
      static_cast<int64_t>(callees + (uint64_t{1} << (probe_fraction_bits - 1))) >> probe_fraction_bits);
  thread.callee_time = f.callee_mark + (compensated << probe_fraction_bits) + 1;
  thread.depth = f.depth;  // activations left open inside it (abandoned or switched away) leave the chain too
  // Where the untimed callees' credit made the callees longer than the call, the
  // difference (up to that credit) is the estimates' excess: the self time keeps zero
  // for it, and the last untimed callee's site is charged with it.
  const uint64_t own = compensated - callee_ticks;
  const uint64_t credit = (thread.credited - f.credit_mark) >> probe_fraction_bits;
  const uint64_t shortfall = static_cast<int64_t>(own) < 0 ? 0 - own : 0;
  const uint64_t over = shortfall < credit ? shortfall : credit;
  thread.credited = f.credit_mark;
  if (PERF_DETAIL_UNLIKELY(over != 0)) {
    slot& credited_site = thread.slots[thread.credit_site];
    store_relaxed(credited_site.over_credited, credited_site.over_credited + over);
  }
  thread.credit_site = f.credit_site;
  slot& target = *f.target;
  store_relaxed(target.self, target.self + own + over);
  // The outermost activation of the row holds the inner ones' time and allocations.
  slot& row = thread.slots[f.row];
  if (row.outermost == &f) {
    row.outermost = nullptr;
    store_relaxed(target.total, target.total + duration);
    const alloc::detail::thread_counters& allocations = *alloc::detail::current;
    store_relaxed(target.alloc_count, target.alloc_count + (allocations.allocations - f.alloc_count));
    store_relaxed(target.alloc_bytes, target.alloc_bytes + (allocations.bytes - f.alloc_bytes));
  }
  add_sample(thread, target, f.site, duration, flags | (callees != 0 ? pending_callees_bit : 0));
  return duration;
}

// The fast path of an adaptive site (PERF_TIMING=adaptive): when the call of site `s`
// on `thread` (the calling thread's block, or null) is not to be timed, counts it and
// returns true; else returns false, having done nothing, and the call is timed
// (begin). An untimed call is a leaf's: it adds its site's estimated duration to its
// caller's callee time and its own small cost to the probes finished, so that the
// caller's self time and compensation stay right; it does not become the thread's
// innermost site (the sampler finds its function by the stack instead: see
// register_site), and leaves no tick-log event. Not when
// the thread is busy (a signal handler's call inside the probe's bookkeeping), which
// begin() then sees. Its updates are not marked busy (two stores more on the fast
// path): each is one instruction (add_relaxed), so a signal handler's measured call
// in the middle of them lands wholly before or after each, and its count and its time
// are kept (a countdown it took may be taken again: only a rate). A key of 0 (not
// registered) reads slot 0, whose countdown stays 0.
PERF_DETAIL_ALWAYS_INLINE bool untimed_call(thread_state* thread, const site& s) noexcept {
#if PERF_DETAIL_ASM_FAST_PATH
  // The instructions GCC makes of the C++ below, one for one: each update is one
  // instruction, as add_relaxed's. The key's low half is the site's id (a 16-bit load
  // reads it whole, or 0 before the site is registered). "memory": the caller may read
  // what it wrote.
  static_assert(site_id_bits == 16 && sizeof(slot) == 512, "the id is read in 16 bits, a slot's offset is id << 9");
  __asm__ inline goto(
      "test %[thread], %[thread]\n\t"
      "jz %l[timed]\n\t"
      "movzwl %c[key](%[site]), %%ecx\n\t"
      "mov %%rcx, %%rax\n\t"
      "shl $9, %%rax\n\t"
      "add %c[slots](%[thread]), %%rax\n\t"
      "mov %c[countdown](%%rax), %%edx\n\t"
      "cmp $1, %%edx\n\t"
      "jbe %l[timed]\n\t"
      "cmpl $0, %c[busy](%[thread])\n\t"
      "jne %l[timed]\n\t"
      "sub $1, %%edx\n\t"
      "mov %%edx, %c[countdown](%%rax)\n\t"
      "addq $1, %c[untimed](%%rax)\n\t"
      "mov %c[estimate](%%rax), %%rax\n\t"
      "add %%rax, %c[callee_time](%[thread])\n\t"
      "add %%rax, %c[credited](%[thread])\n\t"
      "mov %%ecx, %c[credit_site](%[thread])\n\t"
      "mov %c[probe_untimed](%[thread]), %%rax\n\t"
      "add %%rax, %c[probes_finished](%[thread])"
      :
      : [thread] "r"(thread), [site] "r"(&s), [key] "i"(offsetof(site, key)),
        [slots] "i"(offsetof(thread_state, slots)), [countdown] "i"(offsetof(slot, countdown)),
        [busy] "i"(offsetof(thread_state, busy)), [untimed] "i"(offsetof(slot, untimed)),
        [estimate] "i"(offsetof(slot, untimed_estimate)), [callee_time] "i"(offsetof(thread_state, callee_time)),
        [credited] "i"(offsetof(thread_state, credited)), [credit_site] "i"(offsetof(thread_state, credit_site)),
        [probe_untimed] "i"(offsetof(thread_state, probe_untimed)),
        [probes_finished] "i"(offsetof(thread_state, probes_finished))
      : "rax", "rcx", "rdx", "cc", "memory"
      : timed);
  return true;
timed:
  return false;
#else
  if (PERF_DETAIL_UNLIKELY(thread == nullptr)) return false;
  const unsigned key = __atomic_load_n(&s.key, __ATOMIC_RELAXED);
  slot& target = thread->slots[site_id(key)];
  const uint32_t left = target.countdown;
  if (PERF_DETAIL_UNLIKELY(left <= 1) || __atomic_load_n(&thread->busy, __ATOMIC_RELAXED) != 0) return false;
  target.countdown = left - 1;
  add_relaxed(target.untimed, 1);
  add_relaxed(thread->callee_time, target.untimed_estimate);
  add_relaxed(thread->credited, target.untimed_estimate);
  thread->credit_site = site_id(key);
  add_relaxed(thread->probes_finished, thread->probe_untimed);
  return true;
#endif
}

// Mark the owner's bookkeeping, from the statement after begin_busy() to the one
// before end_busy(): a signal handler's measured call that interrupts it records
// nothing. Only where thread.busy is 0 (a probe that found it so), and always in
// pairs on every path (the probe's bookkeeping neither throws nor returns early).
// Functions rather than a scoped object: GCC keeps such an object's reference in
// memory across the signal fences, a store and a load more per probe.
PERF_DETAIL_ALWAYS_INLINE void begin_busy(thread_state& thread) noexcept {
  __atomic_store_n(&thread.busy, 1u, __ATOMIC_RELAXED);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
}
PERF_DETAIL_ALWAYS_INLINE void end_busy(thread_state& thread) noexcept {
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  __atomic_store_n(&thread.busy, 0u, __ATOMIC_RELAXED);
}

}  // namespace detail
}  // namespace perf

#endif  // PERF_DETAIL_THREAD_STATE_HPP
