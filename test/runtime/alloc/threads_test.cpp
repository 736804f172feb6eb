// Eight threads, each with its own allocation pattern: every thread's counters
// hold exactly its own allocations, and the records stay readable after the threads exit.
#include <pthread.h>
#include <unistd.h>

#include <cstdlib>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "alloc/alloc_test_support.hpp"

namespace perf::alloc::test {
namespace {

constexpr int thread_count = 8;
constexpr int rounds = 1000;

struct outcome {
  counters pattern;    // what the pattern made, measured on its thread
  uint64_t sizes = 0;  // the sizes of the blocks it got, as the allocator reports them
  counters totals;     // the thread's whole record, read after it exited
  long tid;
};

// Thread `index` allocates index + 1 blocks of 40 bytes and one of 1000 per round,
// and frees them all. A block's size is the allocator's: a thread that inherits an
// exited thread's arena may get a block a little larger than it asked for.
void run_pattern(int index, outcome& out) {
  std::vector<void*> blocks(static_cast<size_t>(index) + 1);
  uint64_t sizes = 0;
  out.pattern = measure([&blocks, &sizes] {
    for (int round = 0; round < rounds; ++round) {
      for (void*& block : blocks) {
        block = malloc(40);
        sizes += block_size(block);
      }
      void* large = malloc(1000);
      sizes += block_size(large);
      free(large);
      for (void* block : blocks) free(block);
    }
  });
  out.sizes = sizes;
}

const detail::thread_counters* record_of(long tid) {
  for (const detail::thread_counters* record = detail::newest_record(); record != nullptr; record = record->next)
    if (record->tid == tid) return record;
  return nullptr;
}

TEST(AllocThreads, EachThreadCountsExactlyItsOwnPattern) {
  std::vector<outcome> outcomes(thread_count);
  {
    std::vector<std::thread> threads;
    for (int i = 0; i < thread_count; ++i)
      threads.emplace_back([i, &outcomes] {
        pthread_setname_np(pthread_self(), ("pattern-" + std::to_string(i)).c_str());
        outcomes[i].tid = gettid();
        run_pattern(i, outcomes[i]);
      });
    for (std::thread& thread : threads) thread.join();
  }
  for (int i = 0; i < thread_count; ++i) {
    SCOPED_TRACE("thread " + std::to_string(i));
    const uint64_t blocks = static_cast<uint64_t>(i) + 1;
    const counters& made = outcomes[i].pattern;
    EXPECT_EQ(made.allocations, rounds * (blocks + 1));
    EXPECT_EQ(made.frees, rounds * (blocks + 1));
    EXPECT_GE(outcomes[i].sizes, rounds * (blocks * 40 + 1000));
    EXPECT_EQ(made.bytes, outcomes[i].sizes);
    EXPECT_EQ(made.bytes_freed, outcomes[i].sizes);

    const detail::thread_counters* record = record_of(outcomes[i].tid);
    ASSERT_NE(record, nullptr);
    EXPECT_EQ(__atomic_load_n(&record->state, __ATOMIC_ACQUIRE), detail::exited);
    EXPECT_STREQ(record->name, ("pattern-" + std::to_string(i)).c_str());
    EXPECT_GE(detail::load_relaxed(record->allocations), made.allocations);
  }
}

}  // namespace
}  // namespace perf::alloc::test
