// perf::alloc::watcher: a background thread that looks at every thread's allocation
// counters at an interval, without stopping them, and calls back when a thread
// appears, when it exits, and when it has allocated more than a threshold of bytes
// since the last reset:
//
//   perf::alloc::watcher::callbacks on;
//   on.threshold_passed = [](const perf::alloc::thread_info& t) { log(t.tid, t.totals.bytes); };
//   perf::alloc::watcher watching(std::chrono::milliseconds(100), 1 << 20, on);
//
// Callbacks run on the watcher's thread, one at a time, with no lock held, so they
// may call anything, the watcher's own reset() and stop() included. An exception
// from a callback is caught and handed to `callback_failed` (by default, a line on
// standard error); the watcher keeps going. The thread records it reads are never
// freed, so a thread exiting meanwhile is harmless. Needs perf::alloc linked for
// non-zero counters. This header compiles as C++11 and later.
#ifndef PERF_ALLOC_WATCHER_HPP
#define PERF_ALLOC_WATCHER_HPP

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>

#include "perf/alloc.hpp"
#include "perf/detail/compiler.hpp"

namespace perf {
namespace alloc {

// A thread as the watcher saw it.
struct thread_info {
  long tid;
  counters totals;             // since the thread started
  uint64_t bytes_since_reset;  // allocated since the last reset (or the thread's start)
};

class PERF_DETAIL_EXPORT watcher {
 public:
  struct callbacks {
    // A thread seen for the first time (those running when the watcher starts
    // included). A thread is known from its first allocation on.
    std::function<void(const thread_info&)> thread_created;
    // A thread seen to have exited; after its thread_created.
    std::function<void(const thread_info&)> thread_exited;
    // A thread whose bytes since the last reset exceed the threshold; its count
    // then starts again from zero.
    std::function<void(const thread_info&)> threshold_passed;
    // What a callback threw (its what(), or "an exception of unknown type").
    std::function<void(const char* what)> callback_failed;
  };

  // Starts the watcher thread; its first look is immediate.
  watcher(std::chrono::milliseconds interval, uint64_t threshold_bytes, callbacks on);
  // Stops it.
  ~watcher();
  watcher(const watcher&) = delete;
  watcher& operator=(const watcher&) = delete;

  // Every thread's bytes since reset start again from zero: from a look that
  // starts after the call, which the call waits for (from a callback, it returns
  // at once: the next look). Any thread may call it.
  void reset();
  // Ends the watching without waiting for the interval: returns once the watcher
  // thread has finished (at once, when called from a callback). Idempotent.
  void stop();

 private:
  struct state;
  std::unique_ptr<state> state_;
};

}  // namespace alloc
}  // namespace perf

#endif  // PERF_ALLOC_WATCHER_HPP
