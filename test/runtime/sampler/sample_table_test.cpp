#include "sampler/sample_table.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <map>
#include <thread>
#include <vector>

namespace perf::runtime {
namespace {

using stack = std::vector<uintptr_t>;

std::map<std::tuple<uint32_t, uint32_t, stack>, uint64_t> contents(const sample_table& table) {
  std::map<std::tuple<uint32_t, uint32_t, stack>, uint64_t> out;
  table.for_each([&](const stack_view& v) { out[{v.tid, v.site, stack(v.frames, v.frames + v.depth)}] += v.count; });
  return out;
}

TEST(SampleTable, CountsEachDistinctStackPerThreadAndSite) {
  sample_table table(64, 4);
  const stack a{1, 2, 3}, b{1, 2, 4};
  table.add(7, 0, a.data(), 3, 1);
  table.add(7, 0, a.data(), 3, 2);
  table.add(8, 0, a.data(), 3, 1);
  table.add(7, 5, a.data(), 3, 1);
  table.add(7, 0, b.data(), 3, 1);
  const auto held = contents(table);
  EXPECT_EQ(held.size(), 4u);
  EXPECT_EQ(held.at({7, 0, a}), 3u);
  EXPECT_EQ(held.at({8, 0, a}), 1u);
  EXPECT_EQ(held.at({7, 5, a}), 1u);
  EXPECT_EQ(held.at({7, 0, b}), 1u);
  EXPECT_EQ(table.dropped(), 0u);
  EXPECT_EQ(table.counted(), 6u) << "every weight added, without walking the table";
}

TEST(SampleTable, CutsStacksToItsDepth) {
  sample_table table(16, 2);
  const stack deep{1, 2, 3, 4};
  table.add(1, 0, deep.data(), 4, 1);
  EXPECT_EQ(contents(table).at({1, 0, stack{1, 2}}), 1u);
}

TEST(SampleTable, CountsWhatFindsNoSlotAsDropped) {
  sample_table table(2, 1);
  for (uintptr_t pc = 1; pc <= 5; ++pc) table.add(1, 0, &pc, 1, 10);
  EXPECT_EQ(contents(table).size(), 2u);
  EXPECT_EQ(table.dropped(), 30u);
  EXPECT_EQ(table.counted(), 20u) << "dropped samples are not counted";
}

TEST(SampleTable, ClearForgetsEverything) {
  sample_table table(16, 2);
  const uintptr_t pc = 9;
  table.add(1, 0, &pc, 1, 1);
  table.clear();
  EXPECT_TRUE(contents(table).empty());
  EXPECT_EQ(table.counted(), 0u);
  table.add(1, 0, &pc, 1, 1);
  EXPECT_EQ(contents(table).at({1, 0, stack{9}}), 1u);
}

// Threads adding the same stacks at once lose no count (a stack may take two slots).
TEST(SampleTable, ConcurrentAddsLoseNothing) {
  sample_table table(1024, 3);
  constexpr int threads = 4, adds = 20000;
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&] {
      for (int i = 0; i < adds; ++i) {
        const stack s{static_cast<uintptr_t>(i % 8), 2, 3};
        table.add(1, 0, s.data(), 3, 1);
      }
    });
  for (std::thread& w : workers) w.join();
  uint64_t total = 0;
  for (const auto& [key, count] : contents(table)) total += count;
  EXPECT_EQ(total, uint64_t{threads} * adds);
  EXPECT_EQ(table.counted(), total);
  EXPECT_EQ(contents(table).size(), 8u);
}

// The process's resident memory in KiB.
long resident_kib() {
  long pages = 0, resident = 0;
  std::FILE* statm = std::fopen("/proc/self/statm", "r");
  if (statm == nullptr || std::fscanf(statm, "%ld %ld", &pages, &resident) != 2) resident = 0;
  if (statm != nullptr) std::fclose(statm);
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

// The frames of the stacks a table holds lie together, in the order the stacks came: a
// thousand stacks in a table as the sampler makes it (65,536 slots of 128 frames, 66 MiB
// reserved) keep their own frames resident (1,000 KiB) and the slots' pages their hashes
// fall in (at most 2 MiB), where a page of frames each made 5.7 MiB.
TEST(SampleTable, AThousandStacksKeepAboutTheirOwnFramesResident) {
#if defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "TSan maps shadow memory for every page the table touches: resident sizes are its own";
#endif
  sample_table table(1u << 16, 128);
  std::vector<uintptr_t> frames(128, 0x401);
  const long before = resident_kib();
  for (uintptr_t n = 0; n < 1000; ++n) {
    frames[0] = 0x1000 + n;
    table.add(1, 0, frames.data(), 128, 1);
  }
  const long grown = resident_kib() - before;
  EXPECT_LT(grown, 4 * 1024) << "KiB";
  EXPECT_EQ(contents(table).size(), 1000u);
  EXPECT_EQ(table.dropped(), 0u);
}

}  // namespace
}  // namespace perf::runtime
