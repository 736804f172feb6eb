// A program linked with perf::alloc and then tcmalloc: its blocks still come from
// tcmalloc (whose size classes differ from glibc's), and they are counted.
#include <dlfcn.h>
#include <malloc.h>
#include <stdlib.h>

#include <cstring>
#include <new>

#include <gtest/gtest.h>

#include "alloc/alloc_test_support.hpp"

namespace perf::alloc::test {
namespace {

TEST(AllocTcmalloc, BlocksComeFromTcmallocAndAreCounted) {
  ASSERT_TRUE(counting_active());
  Dl_info owner{};
  ASSERT_NE(dladdr(dlsym(RTLD_DEFAULT, "malloc_usable_size"), &owner), 0);
  EXPECT_NE(std::strstr(owner.dli_fname, "tcmalloc"), nullptr) << owner.dli_fname;

  uint64_t malloc_size = 0;
  uint64_t new_size = 0;
  const counters used = measure([&] {
    void* block = malloc(40);
    escape(block);
    malloc_size = block_size(block);
    free(block);
    void* object = ::operator new(40);
    escape(object);
    new_size = block_size(object);
    ::operator delete(object, 40);
  });
  EXPECT_EQ(malloc_size, 48u);  // tcmalloc's class for 40 bytes; glibc's usable size would be 40
  EXPECT_EQ(new_size, 48u);
  EXPECT_EQ(used.allocations, 2u);
  EXPECT_EQ(used.bytes, 96u);
  EXPECT_EQ(used.frees, 2u);
  EXPECT_EQ(used.bytes_freed, 96u);
}

}  // namespace
}  // namespace perf::alloc::test
