// Taking a thread's stack by its frame pointers, from inside a signal handler.
#ifndef PERF_RUNTIME_SAMPLER_FRAME_WALK_HPP
#define PERF_RUNTIME_SAMPLER_FRAME_WALK_HPP

#include <stdint.h>

namespace perf::runtime {

// The part of a thread's stack that is mapped: [low, high). {0, 0}: not known.
struct stack_bounds {
  uintptr_t low;
  uintptr_t high;
};

// The calling thread's stack as its attributes give it. Not async-signal-safe (the
// main thread's is read from /proc): called when a thread is armed, not in the handler.
stack_bounds current_stack_bounds() noexcept;

// Fills `frames` with the instruction `pc`, then `leaf_caller` (a return address the
// interrupted function may not have saved in a frame record yet: the word at the
// stack pointer on x86-64, the link register on AArch64; only the symbolizer can tell,
// see is_leaf_caller), then the return addresses found by following the chain of frame
// records from `fp`, innermost first; returns how many, from 2 to `depth` (at least
// 2). A record is followed only while it lies above `sp`, above the previous one and,
// with known `bounds`, inside them; with unknown bounds each read is checked by the
// kernel (process_vm_readv). So a chain broken by code built without frame pointers
// ends the stack early and never faults. Async-signal-safe.
unsigned walk_frame_chain(uintptr_t pc, uintptr_t leaf_caller, uintptr_t fp, uintptr_t sp, const stack_bounds& bounds,
                          uintptr_t* frames, unsigned depth) noexcept;

// walk_frame_chain from the registers of a signal handler's `ucontext` argument.
// `depth` is at least 2.
unsigned walk_interrupted_stack(const void* ucontext, const stack_bounds& bounds, uintptr_t* frames,
                                unsigned depth) noexcept;

// Whether `candidate`, the second entry of a walk, is a return address: the
// instruction before it is a call. `code_start` is where the executable code that
// holds it begins (a module's segment), so the bytes looked at are mapped.
bool is_leaf_caller(uintptr_t candidate, uintptr_t code_start) noexcept;

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_SAMPLER_FRAME_WALK_HPP
