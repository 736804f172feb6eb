// close, close_range, closefrom, dup2 and dup3, interposed: the unwinder's own two
// descriptors (libunwind's pipe, through which it checks that memory is mapped:
// core/stack_unwind.hpp) are the runtime's. A program that closes every descriptor it
// did not open (as a daemon does) leaves them open: were they closed, its next files
// would take their numbers, and libunwind would read the program's bytes from one and
// write bytes of memory into the other (or close both). One that the program puts in
// their place with dup2 or dup3 stops the unwinder first (its stacks then end at their
// first frame).
#include <unistd.h>

#include <climits>

#include "core/next_function.hpp"
#include "core/stack_unwind.hpp"
#include "core/startup.hpp"
#include "perf/detail/compiler.hpp"

namespace perf::runtime {
namespace {

int (*next_close)(int);
int (*next_close_range)(unsigned, unsigned, int);
void (*next_closefrom)(int);
int (*next_dup2)(int, int);
int (*next_dup3)(int, int, int);

PERF_RUNTIME_ON_START(resolve_next_descriptor_functions) {
  next_definition(next_close, "close");
  next_definition(next_close_range, "close_range");
  next_definition(next_closefrom, "closefrom");
  next_definition(next_dup2, "dup2");
  next_definition(next_dup3, "dup3");
}

// close_range(first, last, flags) around the unwinder's descriptors.
int close_range_around_unwinder(unsigned first, unsigned last, int flags) noexcept {
  int kept[2];
  const unsigned count = unwinder_descriptors(kept);
  auto close_part = [&](unsigned from, unsigned to) -> int {
    PERF_CALL_NEXT(next_close_range, "close_range", -1, from, to, flags);
  };
  unsigned from = first;
  int result = 0;
  for (unsigned i = 0; i < count; ++i) {
    const auto descriptor = static_cast<unsigned>(kept[i]);
    if (descriptor < from || descriptor > last) continue;
    if (descriptor > from && close_part(from, descriptor - 1) != 0) result = -1;
    from = descriptor + 1;
  }
  if (from <= last && close_part(from, last) != 0) result = -1;
  return result;
}

}  // namespace
}  // namespace perf::runtime

extern "C" {

PERF_DETAIL_EXPORT int close(int descriptor) {
  using namespace perf::runtime;
  if (is_unwinder_descriptor(descriptor)) return 0;
  PERF_CALL_NEXT(next_close, "close", -1, descriptor);
}

PERF_DETAIL_EXPORT int close_range(unsigned first, unsigned last, int flags) {
  return perf::runtime::close_range_around_unwinder(first, last, flags);
}

PERF_DETAIL_EXPORT void closefrom(int lowest) {
  using namespace perf::runtime;
  if (close_range_around_unwinder(static_cast<unsigned>(lowest), UINT_MAX, 0) == 0) return;
  // No close_range (a kernel before 5.9): the C library's own way, which the
  // unwinder's descriptors do not survive.
  stop_unwinder();
  if (auto* function = next_definition(next_closefrom, "closefrom")) function(lowest);
}

PERF_DETAIL_EXPORT int dup2(int from, int to) {
  using namespace perf::runtime;
  if (is_unwinder_descriptor(to)) stop_unwinder();
  PERF_CALL_NEXT(next_dup2, "dup2", -1, from, to);
}

PERF_DETAIL_EXPORT int dup3(int from, int to, int flags) {
  using namespace perf::runtime;
  if (is_unwinder_descriptor(to)) stop_unwinder();
  PERF_CALL_NEXT(next_dup3, "dup3", -1, from, to, flags);
}

}  // extern "C"
