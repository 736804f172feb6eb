// The text that names the code behind a recorded allocation, for the failure
// messages of perf/gtest_alloc.hpp. Defined in libperfrt's sampler, whose
// symbolizer reads the program's debug information. Not part of the public API.
#ifndef PERF_DETAIL_ALLOCATION_STACK_HPP
#define PERF_DETAIL_ALLOCATION_STACK_HPP

#include <stdint.h>

#include <string>

#include "perf/detail/compiler.hpp"

namespace perf {
namespace alloc {
namespace detail {

// The program's frames among the `depth` return addresses `frames` (innermost
// first), one line each, "\n    at function (file:line)" (file:line where the debug
// information gives them), from the innermost frame of the program's own code on;
// each run of frames of the standard library, another library or perf itself
// folded into "\n    ...". Any thread; allocates (call it only after recording).
PERF_DETAIL_EXPORT std::string describe_stack(const uintptr_t* frames, unsigned depth);

}  // namespace detail
}  // namespace alloc
}  // namespace perf

#endif  // PERF_DETAIL_ALLOCATION_STACK_HPP
