// Call statistics for a scope: PERF_MEASURE and what the rewriter inserts.
//
//   int parse(const char* text) {
//     PERF_MEASURE("parse");
//     ...
//   }
//
// Every call of the enclosing block is counted on the calling thread, and timed,
// without a lock, a guard variable or a heap allocation after the thread's first
// measured call; the exit report merges all threads. Under PERF_TIMING=adaptive (the
// default), a leaf whose calls are short beside the probe's cost is timed on a random
// sample of its calls only, every call still counted (untimed_call in
// perf/detail/thread_state.hpp); the _TIME_ALL forms time every call. A block left by an exception
// is recorded too; one left by longjmp is dropped, and nothing is written into the
// stack it leaves. In a signal handler, a call is recorded in full, or not at all
// where the handler interrupted the probe's own bookkeeping. This header compiles
// as C++11 and later.
#ifndef PERF_MEASURE_HPP
#define PERF_MEASURE_HPP

#include "perf/detail/clock.hpp"
#include "perf/detail/compiler.hpp"
#include "perf/detail/thread_state.hpp"
#include "perf/detail/usdt.hpp"

namespace perf {
namespace detail {

// Opens an activation of the site with key `key` on `thread`; with `Logged`, also
// logs its enter event, at the very clock value the statistics use. `stack` is the
// stack pointer of the measured function (as begin() finds it): every activation
// that encloses this one lives at or above it.
//
// The activation joins the thread's chain (thread_state::chain), above the innermost
// activation that may enclose it. One whose function's stack pointer lies below
// `stack` cannot: a longjmp (siglongjmp, a C library's error callback) abandoned it,
// or the thread switched stacks inside it (a fiber swapped out, a coroutine suspended,
// its frame left on another stack or the heap); it leaves the chain (one compare, a
// branch not taken where activations nest; [0] lies above every stack). Closing an
// activation (end()) takes what lies above it in the chain off it too. So the chain
// holds the activations that enclose the running code, as far as stack positions can
// tell: activations on two stacks compare by address only. An abandoned activation
// that lies above a later call's stack pointer (the later call made from deeper down)
// counts as open until the chain drops it.
//
// Abandoned or switched away, an activation that leaves the chain is not recorded:
// an abandoned one is never closed (its time is its caller's self time); one that
// ends later finds itself off the chain and counts as a switched call only (end()).
// The row's outermost activation is the first the chain holds (slot::outermost):
// recursion is counted once, and an outermost activation that left the chain, or an
// abandoned one at this very frame's address, is replaced by this one.
//
// `probe_offset` is the thread's probe_offset, or less for a sampled leaf's timed call
// (begin_timed).
template <bool Logged>
PERF_DETAIL_ALWAYS_INLINE void open(thread_state& thread, unsigned key, frame& f, uintptr_t stack,
                                    uint64_t probe_offset) noexcept {
  const unsigned id = site_id(key);
  const uintptr_t address = reinterpret_cast<uintptr_t>(&f);
  f.target = thread.slots + id;
  f.site = id;
  f.row = site_row(key);
  slot& row = thread.slots[site_row(key)];
  // Busy from here: a signal handler's measured call in the middle of the chain's
  // update would take the place this activation is given.
  begin_busy(thread);
  uint32_t depth = thread.depth;
  while (PERF_DETAIL_UNLIKELY(thread.chain[depth - 1].stack < stack)) --depth;
  const frame* const outermost = row.outermost;
  if (outermost == nullptr || outermost == &f ||
      !chain_holds(thread, depth, row.outermost_depth, reinterpret_cast<uintptr_t>(outermost))) {
    row.outermost = &f;
    row.outermost_depth = depth;
  }
  f.depth = depth;
  thread.chain[depth] = open_activation{stack, address, id};
  thread.depth = depth + (depth < chain_capacity ? 1 : 0);
  f.callee_mark = thread.callee_time;
  f.credit_mark = thread.credited;
  f.credit_site = thread.credit_site;
  f.probe_mark = thread.probes_finished + probe_offset;
  const alloc::detail::thread_counters& allocations = *alloc::detail::current;
  f.alloc_count = allocations.allocations;
  f.alloc_bytes = allocations.bytes;
  f.start = clock_now(thread.clock);
  if (Logged && thread.ring != nullptr) log_scope_event(*thread.ring, f.start, event_kind::enter, id);
  end_busy(thread);
}

// The stack pointer of the function that called the calling function: what open()
// takes, read where the caller's frame ends.
#define PERF_DETAIL_CALLER_STACK() reinterpret_cast<uintptr_t>(__builtin_dwarf_cfa())

// begin()'s timed path: opens an activation of `s` on `thread` (the calling
// thread's block, or null before its first measured call), `stack` being the measured
// function's stack pointer and `code` an address in its code (what register_site
// records), or returns null as begin() says. Fires the USDT probe perf:enter first
// where a tracer raised its semaphore (perf/detail/usdt.hpp).
template <bool Logged, bool Sampled>
PERF_DETAIL_OUT_OF_LINE thread_state* begin_timed(thread_state* thread, site& s, frame& f, uintptr_t stack,
                                                  const void* code) noexcept {
  if (PERF_DETAIL_UNLIKELY(thread == nullptr) && (thread = attach_thread()) == nullptr) return nullptr;
  if (PERF_DETAIL_UNLIKELY(__atomic_load_n(&thread->busy, __ATOMIC_RELAXED) != 0)) return nullptr;
  unsigned key = __atomic_load_n(&s.key, __ATOMIC_RELAXED);
  if (PERF_DETAIL_UNLIKELY(key == 0)) key = register_site(s, code);
  uint64_t probe_offset = thread->probe_offset;
  if (Sampled) {
    slot& target = thread->slots[site_id(key)];
    if (PERF_DETAIL_UNLIKELY(target.period != 0)) {
      target.countdown = next_countdown(*thread, target.period);
      probe_offset -= thread->probe_sampled_extra;
    }
  }
  // Before the clock read that opens the activation: a tracer's cost stays out of it.
  if (PERF_DETAIL_UNLIKELY(*usdt_enter_semaphore != 0)) usdt_enter(*thread, site_id(key));
  open<Logged>(*thread, key, f, stack, probe_offset);
  return thread;
}

// Opens an activation of `s` on the calling thread (see open), or returns null,
// having recorded nothing, when the thread is busy: inside the probe's or the
// runtime's own bookkeeping, which a signal handler or the program's allocator
// interrupted (thread_state::busy).
//
// With `Sampled` (every form but the _TIME_ALL ones), first takes adaptive timing's
// fast path (untimed_call): a call not to be timed is counted, and begin() returns
// null; else it draws the site's next countdown where the site is sampled
// (slot::period), before the clock read.
//
// begin() and end() are called, not inlined: a measured function then grows by two
// calls and a test, not by the scope's whole bookkeeping, so the compiler inlines it
// where it did without the scope. Inlined, the scope made small functions too large
// to inline, and GCC's flow-sensitive warnings then saw code the plain build never has
// (-Wstringop-overflow on a copy into a small buffer, in a function compiled on its
// own instead of in its caller): an instrumented build printed warnings its plain
// build does not (lit/warning_free_build.test). Even the fast path alone, inlined as
// C++, is enough to do that; written in `asm inline` (PERF_DETAIL_ASM_FAST_PATH), it
// is not, and the scopes take it inline (PERF_DETAIL_INLINE_FAST_PATH, below).
//
// The timed path is a function of its own (begin_timed) so that the fast path saves
// no register: in one function, GCC pushed the six that the timed path uses before the
// fast path's first test, and the untimed call cost twice its work.
//
// With `FastPath` false, the caller has taken the fast path itself (inlined).
//
// Always called from the measured function's own code (the scopes and begin_scope
// are always inlined): its return address, which a site's first call registers, lies
// in the measured function, and passing it costs the timed path one load.
template <bool Logged, bool Sampled, bool FastPath = Sampled>
PERF_DETAIL_OUT_OF_LINE thread_state* begin(site& s, frame& f) noexcept {
  thread_state* const thread = current_thread;
  if (FastPath && untimed_call(thread, s)) return nullptr;
  return begin_timed<Logged, Sampled>(thread, s, f, PERF_DETAIL_CALLER_STACK(), __builtin_return_address(0));
}

// Closes the activation opened by open<Logged>() or begin<Logged, Sampled>() (nothing
// when begin() returned null), firing perf:exit where a tracer raised its semaphore
// (perf/detail/usdt.hpp); `TimeAll` for a site that times every call. Its
// bookkeeping is busy (begin_busy): a signal handler's measured call in the middle of
// it records nothing.
//
// An activation that ends on another thread than the one it began on (a fiber resumed
// by another thread, a coroutine by a worker, perhaps after the first thread exited),
// or off its thread's chain (see open()), is a switched call: counted for its site
// (count_switched_call) and recorded nowhere else. Its thread's block, which the scope
// holds, is then never read: that thread may be writing it, or gone.
template <bool Logged, bool TimeAll = false>
PERF_DETAIL_OUT_OF_LINE void end(thread_state* thread, frame& f) noexcept {
  if (PERF_DETAIL_UNLIKELY(thread == nullptr)) return;
  if (PERF_DETAIL_UNLIKELY(thread != current_thread)) return count_switched_call(f.site);
  const uint64_t now = clock_now(thread->clock);
  begin_busy(*thread);
  if (PERF_DETAIL_LIKELY(holds(*thread, f))) {
    tick_ring* const ring = Logged ? thread->ring : nullptr;
    if (ring != nullptr) log_scope_event(*ring, now, event_kind::exit, f.site);
    if (PERF_DETAIL_UNLIKELY(*usdt_exit_semaphore != 0)) usdt_exit(*thread, f.site, f.start, now);
    const uint64_t duration = finish(*thread, f, now, TimeAll ? pending_time_all_bit : 0);
    if (ring != nullptr) judge_call(*ring, f.site, duration, f.start, now);
  } else {
    count_switched_call(f.site);
  }
  end_busy(*thread);
}

// -Weffc++ (yaml-cpp builds with it) asks for frame_ in the member initialiser list:
// begin() writes every field of it, and zeroing it first would cost the probe stores.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Weffc++"
#endif

// Opens the activation of a scope (begin), taking adaptive timing's fast path where
// the scope inlines it (InlineFastPath) or leaving it to begin(); every call is timed
// with `TimeAll`.
template <bool Logged, bool TimeAll, bool InlineFastPath>
PERF_DETAIL_ALWAYS_INLINE thread_state* begin_scope(site& s, frame& f) noexcept {
  if (TimeAll) return begin<Logged, false>(s, f);
  if (InlineFastPath) return untimed_call(current_thread, s) ? nullptr : begin<Logged, true, false>(s, f);
  return begin<Logged, true>(s, f);
}

// Measures the lifetime of the object: from construction to destruction. With
// `Logged`, the tick log also gets an enter and an exit event; with `TimeAll`, every
// call is timed whatever PERF_TIMING says; with `InlineFastPath`, an untimed call
// costs no call (see PERF_INLINE_FAST_PATH).
template <bool Logged, bool TimeAll, bool InlineFastPath = false>
class basic_scope {
 public:
  PERF_DETAIL_ALWAYS_INLINE explicit basic_scope(site& s) noexcept
      : thread_(begin_scope<Logged, TimeAll, InlineFastPath>(s, frame_)) {}
  PERF_DETAIL_ALWAYS_INLINE ~basic_scope() {
    if (thread_ != nullptr) end<Logged, TimeAll>(thread_, frame_);
  }

  basic_scope(const basic_scope&) = delete;
  basic_scope& operator=(const basic_scope&) = delete;

 private:
  frame frame_;
  thread_state* thread_;
};

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#if __cplusplus >= 202002L
// The same for a constexpr function: it does nothing during constant evaluation,
// so the function stays usable in constant expressions. `site_of` returns the site
// (a lambda holding it, since a constexpr function may not declare a static).
template <bool Logged, bool TimeAll, bool InlineFastPath>
class constexpr_scope {
 public:
  // Inlined, as basic_scope's: begin() is then called from the measured function itself.
  template <class SiteOf>
  PERF_DETAIL_ALWAYS_INLINE constexpr explicit constexpr_scope(SiteOf site_of) noexcept {
    if (!__builtin_is_constant_evaluated()) thread_ = begin_scope<Logged, TimeAll, InlineFastPath>(site_of(), frame_);
  }
  constexpr ~constexpr_scope() {
    if (!__builtin_is_constant_evaluated() && thread_ != nullptr) end<Logged, TimeAll>(thread_, frame_);
  }

  constexpr_scope(const constexpr_scope&) = delete;
  constexpr_scope& operator=(const constexpr_scope&) = delete;

 private:
  frame frame_{};
  thread_state* thread_ = nullptr;
};
#endif

}  // namespace detail
}  // namespace perf

// Whether the scopes inline adaptive timing's fast path, so that an untimed call costs
// a few instructions and no call (docs/performance.md, "Adaptive timing"): always where
// the fast path is written in assembly (PERF_DETAIL_ASM_FAST_PATH: x86-64, GCC 9 or
// Clang 14 and later), which the inliner counts as one instruction. Elsewhere only with
// PERF_INLINE_FAST_PATH defined to 1 before this header is included (or
// -DPERF_INLINE_FAST_PATH=1): the fast path is then C++, a measured function grows by
// it, so the compiler may no longer inline it where it did, and GCC's flow-sensitive
// warnings (-Wstringop-overflow and the like) may then see it compiled on its own and
// warn where the plain build did not.
#if (defined(PERF_INLINE_FAST_PATH) && PERF_INLINE_FAST_PATH) || PERF_DETAIL_ASM_FAST_PATH
#define PERF_DETAIL_INLINE_FAST_PATH true
#else
#define PERF_DETAIL_INLINE_FAST_PATH false
#endif

#define PERF_DETAIL_MEASURE(name, n, logged, time_all)                                            \
  static ::perf::detail::site PERF_DETAIL_CONCAT(perf_site_, n) = {name, __FILE__, __LINE__, 0};  \
  ::perf::detail::basic_scope<logged, time_all, PERF_DETAIL_INLINE_FAST_PATH> PERF_DETAIL_CONCAT( \
      perf_scope_, n)(PERF_DETAIL_CONCAT(perf_site_, n))

#define PERF_DETAIL_MEASURE_CONSTEXPR(name, n, logged, time_all)                                      \
  ::perf::detail::constexpr_scope<logged, time_all, PERF_DETAIL_INLINE_FAST_PATH> PERF_DETAIL_CONCAT( \
      perf_scope_, n)([]() noexcept -> ::perf::detail::site& {                                        \
    static ::perf::detail::site perf_site = {name, __FILE__, __LINE__, 0};                            \
    return perf_site;                                                                                 \
  })

// Measures the rest of the enclosing block under `name` (a string literal).
// Usable several times in one function, in nested blocks. Each call also logs an
// enter and an exit event in the tick log (perf/tick.hpp) unless PERF_TICKS=off.
#define PERF_MEASURE(name) PERF_DETAIL_MEASURE(name, __COUNTER__, true, false)

// PERF_MEASURE without the tick-log events: for a scope so hot that its events
// would crowd everything else out of the ring.
#define PERF_MEASURE_NO_TICKS(name) PERF_DETAIL_MEASURE(name, __COUNTER__, false, false)

// PERF_MEASURE for the body of a constexpr function (C++20 and later): measured
// when called at run time, invisible during constant evaluation.
#define PERF_MEASURE_CONSTEXPR(name) PERF_DETAIL_MEASURE_CONSTEXPR(name, __COUNTER__, true, false)

// What perf-instrument inserts; the same as PERF_MEASURE, spelled apart so that
// `perf-instrument --revert` removes its own insertions and never a hand-written one.
// The _NO_TICKS forms are for the functions chosen with --no-ticks.
#define PERF_INSTRUMENT(name) PERF_DETAIL_MEASURE(name, __COUNTER__, true, false)
#define PERF_INSTRUMENT_NO_TICKS(name) PERF_DETAIL_MEASURE(name, __COUNTER__, false, false)
#define PERF_INSTRUMENT_CONSTEXPR(name) PERF_DETAIL_MEASURE_CONSTEXPR(name, __COUNTER__, true, false)
#define PERF_INSTRUMENT_CONSTEXPR_NO_TICKS(name) PERF_DETAIL_MEASURE_CONSTEXPR(name, __COUNTER__, false, false)

// The forms that time every call of the scope, whatever PERF_TIMING says: for a
// latency check that needs every duration. perf-instrument inserts the
// PERF_INSTRUMENT_*TIME_ALL forms for the functions chosen with --time-all.
#define PERF_MEASURE_TIME_ALL(name) PERF_DETAIL_MEASURE(name, __COUNTER__, true, true)
#define PERF_INSTRUMENT_TIME_ALL(name) PERF_DETAIL_MEASURE(name, __COUNTER__, true, true)
#define PERF_INSTRUMENT_NO_TICKS_TIME_ALL(name) PERF_DETAIL_MEASURE(name, __COUNTER__, false, true)
#define PERF_INSTRUMENT_CONSTEXPR_TIME_ALL(name) PERF_DETAIL_MEASURE_CONSTEXPR(name, __COUNTER__, true, true)
#define PERF_INSTRUMENT_CONSTEXPR_NO_TICKS_TIME_ALL(name) PERF_DETAIL_MEASURE_CONSTEXPR(name, __COUNTER__, false, true)

#endif  // PERF_MEASURE_HPP
