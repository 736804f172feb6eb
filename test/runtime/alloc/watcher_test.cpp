// The allocation watcher: it reports a thread's creation, its crossing of the
// byte threshold and its exit, survives a throwing callback, and stops at once.
#include "perf/alloc_watcher.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "alloc/alloc_test_support.hpp"

namespace perf::alloc::test {
namespace {

using namespace std::chrono_literals;

// The events the watcher reported, for one thread of interest.
class event_log {
 public:
  void watch(long tid) {
    std::lock_guard<std::mutex> lock(mutex_);
    tid_ = tid;
  }
  void add(const std::string& event, const thread_info& info) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (info.tid != tid_) return;
    events_.push_back(event);
    last_ = info;
    changed_.notify_all();
  }
  // Waits (up to 10 s) until `count` events are there; returns them.
  std::vector<std::string> wait_for(size_t count) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait_for(lock, 10s, [&] { return events_.size() >= count; });
    return events_;
  }
  thread_info last() {
    std::lock_guard<std::mutex> lock(mutex_);
    return last_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  long tid_ = -1;
  std::vector<std::string> events_;
  thread_info last_{};
};

watcher::callbacks logging_to(event_log& log) {
  watcher::callbacks on;
  on.thread_created = [&log](const thread_info& info) { log.add("created", info); };
  on.threshold_passed = [&log](const thread_info& info) { log.add("threshold", info); };
  on.thread_exited = [&log](const thread_info& info) { log.add("exited", info); };
  return on;
}

// A thread that allocates a little at once (the watcher knows a thread from its
// first allocation), then block i when told step i + 1, and frees them all and
// exits when joined.
class worker {
 public:
  explicit worker(std::vector<size_t> blocks)
      : thread_([this, blocks] {
          std::vector<void*> kept(blocks.size());
          std::unique_lock<std::mutex> lock(mutex_);
          tid_ = gettid();
          changed_.notify_all();
          for (size_t i = 0; i < blocks.size(); ++i) {
            changed_.wait(lock, [&] { return step_ > i; });
            kept[i] = std::malloc(blocks[i]);
            escape(kept[i]);
            allocated_ = i + 1;
            changed_.notify_all();
          }
          changed_.wait(lock, [&] { return step_ > blocks.size(); });
          for (void* block : kept) std::free(block);
        }),
        last_step_(blocks.size() + 1) {}
  ~worker() {
    if (thread_.joinable()) join();
  }
  long tid() {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return tid_ != 0; });
    return tid_;
  }
  void advance(size_t step) {
    std::lock_guard<std::mutex> lock(mutex_);
    step_ = step;
    changed_.notify_all();
  }
  // Waits until the thread has allocated its first `count` blocks.
  void wait_allocated(size_t count) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return allocated_ >= count; });
  }
  void join() {
    advance(last_step_);
    thread_.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  long tid_ = 0;
  size_t step_ = 0;
  size_t allocated_ = 0;
  std::thread thread_;
  size_t last_step_;
};

TEST(AllocWatcher, SeesCreationThresholdAndExit) {
  event_log log;
  std::unique_ptr<worker> thread(new worker({100000}));
  log.watch(thread->tid());
  watcher watching(1ms, 50000, logging_to(log));
  EXPECT_EQ(log.wait_for(1), std::vector<std::string>({"created"}));
  thread->advance(1);
  EXPECT_EQ(log.wait_for(2), std::vector<std::string>({"created", "threshold"}));
  EXPECT_GE(log.last().bytes_since_reset, 100000u);
  thread->join();
  EXPECT_EQ(log.wait_for(3), std::vector<std::string>({"created", "threshold", "exited"}));
  EXPECT_GE(log.last().totals.allocations, 2u);
  EXPECT_GE(log.last().totals.bytes, 100008u);  // the block and the thread's vector of one pointer
  thread.reset();
}

// The watcher's own thread allocates as it watches (its map of threads, the
// callbacks' arguments): it is not a thread of the program's, and is never reported.
TEST(AllocWatcher, NeverReportsItsOwnThread) {
  std::mutex mutex;
  std::vector<long> created;
  long watcher_tid = 0;  // the callbacks run on the watcher's thread
  watcher::callbacks on;
  on.thread_created = [&](const thread_info& info) {
    std::lock_guard<std::mutex> lock(mutex);
    created.push_back(info.tid);
    watcher_tid = gettid();
  };
  std::unique_ptr<worker> thread(new worker({100}));
  const long worker_tid = thread->tid();
  {
    watcher watching(1ms, 1u << 30, on);
    thread->advance(1);
    thread->wait_allocated(1);
    std::this_thread::sleep_for(50ms);  // fifty looks, each allocating on the watcher's thread
  }
  thread->join();
  std::lock_guard<std::mutex> lock(mutex);
  EXPECT_EQ(std::count(created.begin(), created.end(), worker_tid), 1);
  ASSERT_NE(watcher_tid, 0);
  EXPECT_EQ(std::count(created.begin(), created.end(), watcher_tid), 0);
}

// A thread that frees what another allocated, and allocates nothing itself, is no
// thread of the watcher's: neither its creation nor its exit is reported. (Under
// AddressSanitizer no thread allocates nothing: the sanitizer's thread start calls
// pthread_getattr_np, which allocates on the new thread before its first instruction;
// such a thread is then reported like any other that allocated.)
TEST(AllocWatcher, NeverReportsAThreadThatOnlyFreed) {
  event_log log;
  void* block = std::malloc(1000);
  escape(block);
  std::mutex mutex;
  std::condition_variable changed;
  long tid = 0;
  uint64_t allocated = 0;  // by the thread itself, before it frees
  bool freed = false, done = false;
  std::thread freeing([&] {
    std::unique_lock<std::mutex> lock(mutex);
    tid = gettid();
    allocated = perf::alloc::this_thread().allocations;
    std::free(block);
    freed = true;
    changed.notify_all();
    changed.wait(lock, [&] { return done; });
  });
  {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return freed; });
  }
  log.watch(tid);
  {
    watcher watching(1ms, 1, logging_to(log));
    std::this_thread::sleep_for(30ms);  // thirty looks while it runs
    {
      std::lock_guard<std::mutex> lock(mutex);
      done = true;
      changed.notify_all();
    }
    freeing.join();
    std::this_thread::sleep_for(30ms);  // and thirty after it exited
  }
#if !defined(__SANITIZE_ADDRESS__)
  EXPECT_EQ(allocated, 0u);
#endif
  const std::vector<std::string> expected =
      allocated == 0 ? std::vector<std::string>() : std::vector<std::string>({"created", "threshold", "exited"});
  EXPECT_EQ(log.wait_for(expected.size()), expected);
}

TEST(AllocWatcher, ResetRestartsTheThresholdCount) {
  event_log log;
  worker thread({40000, 40000, 40000});
  log.watch(thread.tid());
  watcher watching(1ms, 100000, logging_to(log));
  thread.advance(2);  // 80000 bytes: under the threshold
  thread.wait_allocated(2);
  EXPECT_EQ(log.wait_for(1), std::vector<std::string>({"created"}));
  watching.reset();
  thread.advance(3);  // 40000 since the reset; 120000 without it
  thread.wait_allocated(3);
  std::this_thread::sleep_for(50ms);  // many looks
  EXPECT_EQ(log.wait_for(1), std::vector<std::string>({"created"}));
}

TEST(AllocWatcher, AThrowingCallbackIsReportedAndWatchingGoesOn) {
  event_log log;
  std::unique_ptr<worker> thread(new worker({100000}));
  log.watch(thread->tid());
  std::mutex mutex;
  std::vector<std::string> failures;
  watcher::callbacks on = logging_to(log);
  on.thread_created = [&](const thread_info& info) {
    log.add("created", info);
    throw std::runtime_error("callback failed on purpose");
  };
  on.callback_failed = [&](const char* what) {
    std::lock_guard<std::mutex> lock(mutex);
    failures.push_back(what);
  };
  watcher watching(1ms, 50000, on);
  thread->advance(1);
  thread->join();
  EXPECT_EQ(log.wait_for(3), std::vector<std::string>({"created", "threshold", "exited"}));
  watching.stop();
  EXPECT_FALSE(failures.empty());
  for (const std::string& failure : failures) EXPECT_EQ(failure, "callback failed on purpose");
  thread.reset();
}

TEST(AllocWatcher, StopsWithoutWaitingForTheInterval) {
  event_log log;
  log.watch(gettid());
  watcher watching(std::chrono::hours(1), 1 << 30, logging_to(log));
  EXPECT_EQ(log.wait_for(1), std::vector<std::string>({"created"}));
  const auto start = std::chrono::steady_clock::now();
  watching.stop();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
}

TEST(AllocWatcher, ACallbackMayStopItsOwnWatcher) {
  std::unique_ptr<watcher> watching;
  std::mutex mutex;
  std::condition_variable called;
  bool stopped = false;
  watcher::callbacks on;
  on.thread_created = [&](const thread_info&) {
    std::lock_guard<std::mutex> lock(mutex);
    if (stopped) return;
    watching->stop();
    stopped = true;
    called.notify_all();
  };
  {
    std::lock_guard<std::mutex> lock(mutex);  // `watching` is set before the first callback reads it
    watching.reset(new watcher(1ms, 1 << 30, on));
  }
  std::unique_lock<std::mutex> lock(mutex);
  EXPECT_TRUE(called.wait_for(lock, 10s, [&] { return stopped; }));
  lock.unlock();
  watching.reset();
}

}  // namespace
}  // namespace perf::alloc::test
