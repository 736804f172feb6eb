#include "perf/alloc_watcher.hpp"

#include <condition_variable>
#include <cstdio>
#include <exception>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace perf::alloc {
namespace {

// What the watcher remembers of one thread record.
struct seen_thread {
  bool exited = false;
  uint64_t baseline = 0;  // its bytes at the last reset
};

counters totals_of(const detail::thread_counters& record) {
  return counters{detail::load_relaxed(record.allocations), detail::load_relaxed(record.bytes),
                  detail::load_relaxed(record.frees), detail::load_relaxed(record.bytes_freed),
                  detail::load_relaxed(record.peak_live)};
}

}  // namespace

struct watcher::state {
  state(std::chrono::milliseconds every, uint64_t threshold_bytes, callbacks calls)
      : interval(every), threshold(threshold_bytes), on(std::move(calls)) {}

  std::chrono::milliseconds interval;
  uint64_t threshold;
  callbacks on;
  std::mutex mutex;                 // guards `stopping` and `resets`; never held during a callback
  std::condition_variable wake;     // the watcher waits on it
  std::condition_variable applied;  // reset() waits on it
  bool stopping = false;
  uint64_t resets = 0;          // asked for
  uint64_t resets_applied = 0;  // taken into account by a look
  std::thread thread;

  // Only the watcher thread touches it.
  std::unordered_map<const detail::thread_counters*, seen_thread> threads;

  void report_failure(const char* what) {
    if (on.callback_failed) {
      try {
        on.callback_failed(what);
        return;
      } catch (...) {}
    }
    std::fprintf(stderr, "perf: an allocation watcher callback threw: %s\n", what);
  }

  void call(const std::function<void(const thread_info&)>& callback, const thread_info& info) {
    if (!callback) return;
    try {
      callback(info);
    } catch (const std::exception& error) { report_failure(error.what()); } catch (...) {
      report_failure("an exception of unknown type");
    }
  }

  void look(bool reset) {
    for (const detail::thread_counters* record = detail::newest_record(); record != nullptr; record = record->next) {
      // Not the program's: this very thread, and a record that the runtime's own work
      // attached and put back to zero (core/uncounted_allocations.hpp) until its
      // thread allocates. A thread that only freed (what others allocated) allocated
      // nothing: it is known from its first allocation.
      if (record == detail::current) continue;
      const counters totals = totals_of(*record);
      if (totals.allocations == 0) continue;
      const bool exited = __atomic_load_n(&record->state, __ATOMIC_ACQUIRE) == detail::exited;
      auto [entry, created] = threads.try_emplace(record);
      seen_thread& seen = entry->second;
      if (reset) seen.baseline = totals.bytes;
      thread_info info{record->tid, totals, totals.bytes - seen.baseline};
      if (created) call(on.thread_created, info);
      if (info.bytes_since_reset > threshold) {
        seen.baseline = totals.bytes;
        call(on.threshold_passed, info);
      }
      if (exited && !seen.exited) {
        seen.exited = true;
        call(on.thread_exited, info);
      }
    }
  }

  void run() {
    std::unique_lock<std::mutex> lock(mutex);
    while (!stopping) {
      const uint64_t asked = resets;
      lock.unlock();
      look(asked != resets_applied);
      lock.lock();
      if (asked != resets_applied) {
        resets_applied = asked;
        applied.notify_all();
      }
      wake.wait_for(lock, interval, [&] { return stopping || resets != resets_applied; });
    }
  }
};

watcher::watcher(std::chrono::milliseconds interval, uint64_t threshold_bytes, callbacks on)
    : state_(new state(interval, threshold_bytes, std::move(on))) {
  state_->thread = std::thread([this] { state_->run(); });
}

watcher::~watcher() {
  stop();
  if (state_->thread.joinable()) state_->thread.join();
}

void watcher::reset() {
  std::unique_lock<std::mutex> lock(state_->mutex);
  const uint64_t mine = ++state_->resets;
  state_->wake.notify_one();
  if (std::this_thread::get_id() == state_->thread.get_id()) return;  // from a callback: the next look
  state_->applied.wait(lock, [&] { return state_->resets_applied >= mine || state_->stopping; });
}

void watcher::stop() {
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->stopping = true;
    state_->wake.notify_one();
    state_->applied.notify_all();
  }
  if (std::this_thread::get_id() != state_->thread.get_id() && state_->thread.joinable()) state_->thread.join();
}

}  // namespace perf::alloc
