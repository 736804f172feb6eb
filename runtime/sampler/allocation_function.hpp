// Where a recorded allocation's stack leaves the allocation functions: shared by
// describe_stack() (the gtest budgets) and the heap sampler's sites, and the lines
// both show.
#ifndef PERF_RUNTIME_SAMPLER_ALLOCATION_FUNCTION_HPP
#define PERF_RUNTIME_SAMPLER_ALLOCATION_FUNCTION_HPP

#include <cstdint>
#include <string>
#include <vector>

namespace perf::runtime {

// How many of the `depth` return addresses `frames` (innermost first) lie up to and
// inside the outermost allocation function the program called (operator new, malloc
// and the rest: perf's, the C library's or a sanitizer's interceptor): the program's
// stack starts after them. 0 when none is one. Symbolizes (allocates, takes the
// symbolizer's lock): not in a signal handler, nor under a lock the allocator holds.
unsigned allocation_function_frames(const uintptr_t* frames, unsigned depth);

// Whether the stack `frames` (as above) is the runtime's own work: past the allocation
// functions, its innermost frame that is not a library's is perf's (the runtime's
// exit outputs, its registries, its symbolizer), not the program's. Symbolizes, as above.
bool runtime_allocation(const uintptr_t* frames, unsigned depth);

// Whether `function` (a demangled name) is an allocation function the program calls
// (perf's, the C library's or a sanitizer's interceptor), or perf's code inside one.
bool is_allocation_function(const std::string& function);

// The program's frames among `frames` (as above), one line each, from the innermost
// frame of the program's own code out to main: "at function (file:line)" (file:line
// where the debug information gives them), each run of frames of the standard library,
// another library or perf itself folded into "...". What describe_stack() writes and
// the heap sampler's sites show. Symbolizes, as above.
std::vector<std::string> program_frame_lines(const uintptr_t* frames, unsigned depth);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_SAMPLER_ALLOCATION_FUNCTION_HPP
