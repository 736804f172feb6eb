// A program that calls no allocation function itself: its one allocation is made
// inside the C library. Linked with perf::alloc and --as-needed, it is still
// counted: perf::alloc keeps libperfalloc on the link.
#include <stdio.h>
#include <string.h>

#include "perf/alloc.hpp"

int main(int, char** argv) {
  const perf::alloc::scoped_counter counter;
  const char* copy = strdup(argv[0]);  // left allocated: freeing it would be a call of our own
  const perf::alloc::counters used = counter.elapsed();
  printf("counting %s, %llu allocation(s)\n", perf::alloc::counting_active() ? "active" : "inactive",
         static_cast<unsigned long long>(used.allocations));
  return copy != nullptr && used.allocations == 1 ? 0 : 1;
}
