// Every allocation entry point, called once: each is counted exactly once, with
// the block's size, and every free with the same size.
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include <cstdint>
#include <new>

#include <gtest/gtest.h>

#include "alloc/alloc_test_support.hpp"

namespace perf::alloc::test {
namespace {

void expect_counts(const counters& used, uint64_t allocations, uint64_t bytes, uint64_t frees, uint64_t bytes_freed) {
  EXPECT_EQ(used.allocations, allocations);
  EXPECT_EQ(used.bytes, bytes);
  EXPECT_EQ(used.frees, frees);
  EXPECT_EQ(used.bytes_freed, bytes_freed);
}

// One allocation by `allocate` released by `release`: one of each, of the block's size.
template <class Allocate, class Release>
void expect_one_pair(Allocate allocate, Release release, uint64_t requested) {
  uint64_t size = 0;
  const counters used = measure([&] {
    void* block = allocate();
    ASSERT_NE(block, nullptr);
    escape(block);
    size = block_size(block);
    release(block);
  });
  EXPECT_GE(size, requested);
  expect_counts(used, 1, size, 1, size);
}

TEST(AllocCoverage, CountingIsActive) { EXPECT_TRUE(counting_active()); }

// 40 and 1000 bytes are usable sizes in glibc as requested: the figures are exact.
TEST(AllocCoverage, MallocAndFree) {
  const counters used = measure([] {
    void* block = malloc(40);
    escape(block);
    free(block);
  });
  expect_counts(used, 1, 40, 1, 40);
}

TEST(AllocCoverage, Calloc) {
  const counters used = measure([] {
    void* block = calloc(5, 8);
    escape(block);
    free(block);
  });
  expect_counts(used, 1, 40, 1, 40);
}

// Growing counts the new block and frees the old one; realloc(p, 0) frees p.
TEST(AllocCoverage, Realloc) {
  const counters used = measure([] {
    void* block = realloc(nullptr, 40);
    escape(block);
    block = realloc(block, 1000);
    escape(block);
    EXPECT_EQ(realloc(block, 0), nullptr);
  });
  expect_counts(used, 2, 1040, 2, 1040);
}

TEST(AllocCoverage, Reallocarray) {
  const counters used = measure([] {
    void* block = reallocarray(nullptr, 5, 8);
    escape(block);
    block = reallocarray(block, 125, 8);
    escape(block);
    free(block);
  });
  expect_counts(used, 2, 1040, 2, 1040);
}

TEST(AllocCoverage, StrdupGoesThroughMallocOnce) {
  const counters used = measure([] {
    char* copy = strdup("a string of thirty-nine characters ....");
    escape(copy);
    free(copy);
  });
  expect_counts(used, 1, 40, 1, 40);
}

TEST(AllocCoverage, AlignedAlloc) {
  expect_one_pair([] { return aligned_alloc(64, 128); }, [](void* block) { free(block); }, 128);
}

TEST(AllocCoverage, PosixMemalign) {
  expect_one_pair(
      [] {
        void* block = nullptr;
        EXPECT_EQ(posix_memalign(&block, 64, 40), 0);
        return block;
      },
      [](void* block) { free(block); }, 40);
}

TEST(AllocCoverage, Memalign) {
  expect_one_pair([] { return memalign(64, 40); }, [](void* block) { free(block); }, 40);
}

TEST(AllocCoverage, Valloc) {
  expect_one_pair([] { return valloc(40); }, [](void* block) { free(block); }, 40);
}

TEST(AllocCoverage, Pvalloc) {
  expect_one_pair([] { return pvalloc(40); }, [](void* block) { free(block); }, 4096);
}

// Each operator new form with each operator delete form that may release it.
TEST(AllocCoverage, PlainNewWithEveryPlainDelete) {
  expect_one_pair([] { return ::operator new(40); }, [](void* block) { ::operator delete(block); }, 40);
  expect_one_pair([] { return ::operator new(40); }, [](void* block) { ::operator delete(block, 40); }, 40);
  expect_one_pair([] { return ::operator new(40); }, [](void* block) { ::operator delete(block, std::nothrow); }, 40);
  expect_one_pair([] { return ::operator new(40, std::nothrow); }, [](void* block) { ::operator delete(block); }, 40);
}

TEST(AllocCoverage, ArrayNewWithEveryArrayDelete) {
  expect_one_pair([] { return ::operator new[](40); }, [](void* block) { ::operator delete[](block); }, 40);
  expect_one_pair([] { return ::operator new[](40); }, [](void* block) { ::operator delete[](block, 40); }, 40);
  expect_one_pair([] { return ::operator new[](40); }, [](void* block) { ::operator delete[](block, std::nothrow); },
                  40);
  expect_one_pair([] { return ::operator new[](40, std::nothrow); }, [](void* block) { ::operator delete[](block); },
                  40);
}

constexpr std::align_val_t line{64};

TEST(AllocCoverage, AlignedNewWithEveryAlignedDelete) {
  expect_one_pair([] { return ::operator new(40, line); }, [](void* block) { ::operator delete(block, line); }, 40);
  expect_one_pair([] { return ::operator new(40, line); }, [](void* block) { ::operator delete(block, 40, line); }, 40);
  expect_one_pair([] { return ::operator new(40, line); },
                  [](void* block) { ::operator delete(block, line, std::nothrow); }, 40);
  expect_one_pair([] { return ::operator new(40, line, std::nothrow); },
                  [](void* block) { ::operator delete(block, line); }, 40);
}

TEST(AllocCoverage, AlignedArrayNewWithEveryAlignedArrayDelete) {
  expect_one_pair([] { return ::operator new[](40, line); }, [](void* block) { ::operator delete[](block, line); }, 40);
  expect_one_pair([] { return ::operator new[](40, line); }, [](void* block) { ::operator delete[](block, 40, line); },
                  40);
  expect_one_pair([] { return ::operator new[](40, line); },
                  [](void* block) { ::operator delete[](block, line, std::nothrow); }, 40);
  expect_one_pair([] { return ::operator new[](40, line, std::nothrow); },
                  [](void* block) { ::operator delete[](block, line); }, 40);
}

struct alignas(64) cache_line {
  char bytes[64];
};

// What the compiler emits for new-expressions (sized delete with GCC, unsized with
// Clang 14) gives the same figures.
TEST(AllocCoverage, NewExpressions) {
  const counters used = measure([] {
    auto* number = new uint64_t[5];
    escape(number);
    delete[] number;
    auto* line_of_bytes = new cache_line;
    escape(line_of_bytes);
    delete line_of_bytes;
  });
  EXPECT_EQ(used.allocations, 2u);
  EXPECT_EQ(used.frees, 2u);
  EXPECT_EQ(used.bytes, used.bytes_freed);
  EXPECT_GE(used.bytes, 40u + 64u);
}

TEST(AllocCoverage, NullAndFailedCallsCountNothing) {
  static volatile size_t impossible = SIZE_MAX;  // volatile: no warning about a constant size
  const counters used = measure([] {
    free(nullptr);
    ::operator delete(nullptr);
    escape(malloc(impossible));
    escape(::operator new(impossible, std::nothrow));
    escape(reallocarray(nullptr, impossible, 2));
  });
  expect_counts(used, 0, 0, 0, 0);
}

TEST(AllocCoverage, FreePreservesErrno) {
  void* block = malloc(40);
  escape(block);
  errno = EINTR;
  free(block);
  EXPECT_EQ(errno, EINTR);
}

TEST(AllocCoverage, PeakLiveBytes) {
  const uint64_t before = this_thread().bytes - this_thread().bytes_freed;
  void* first = malloc(1000);
  void* second = malloc(1000);
  escape(first);
  escape(second);
  free(first);
  free(second);
  EXPECT_GE(this_thread().peak_live, before + 2000);
}

TEST(AllocCoverage, MeasuringNothingCountsNothing) {
  expect_counts(measure([] {}), 0, 0, 0, 0);
}

}  // namespace
}  // namespace perf::alloc::test
