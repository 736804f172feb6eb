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

// The executable code of the modules loaded when sampling started, which tells the
// handler a word on the stack that may be a return address from other data. A
// module loaded later is not in it (its frames are then not recovered by scanning).
struct code_ranges {
  static constexpr unsigned capacity = 64;
  uintptr_t start[capacity] = {};  // = {}: constant-initialized, so no dynamic initialization undoes an early add()
  uintptr_t limit[capacity] = {};
  unsigned count = 0;

  // Adds [start, limit); beyond the capacity, nothing. Not while a handler reads.
  void add(uintptr_t range_start, uintptr_t range_limit) noexcept;
  // Whether some range holds `address`. Async-signal-safe.
  bool contains(uintptr_t address) const noexcept;
};

// Whether the stack must be read through the kernel even where its bounds are known:
// under valgrind, whose memcheck reports every read of a stack word the program never
// wrote (the walk reads them all) as an error, and knows process_vm_readv's output to
// be defined. Then pass {0, 0} bounds. Not async-signal-safe (ask once, at start).
bool stack_read_through_kernel() noexcept;

// The calling thread's stack as its attributes give it. Not async-signal-safe (the
// main thread's is read from /proc): called when a thread is armed, not in the handler.
stack_bounds current_stack_bounds() noexcept;

// Fills `frames` with the instruction `pc`, then `leaf_caller` (a return address the
// interrupted function may not have saved in a frame record yet: the word at the
// stack pointer on x86-64, the link register on AArch64; only the symbolizer can tell,
// see is_leaf_caller; 0 where it lies outside `code`, which is data), then the return
// addresses found by following the chain of frame records from `fp`, innermost first;
// returns how many, from 2 to `depth` (at least 2). A record is followed only while it lies above `sp`, above the
// previous one and, with known `bounds`, inside them; with unknown bounds each read is checked by the kernel
// (process_vm_readv). So a chain broken by code built without frame pointers ends the stack early and never faults.
// Async-signal-safe.
//
// With `code`, a chain that is lost (`fp`, or a record's saved frame pointer, holds no
// record above the last one: code built without frame pointers, such as the C
// library's malloc or libstdc++, uses the register for data) is looked for on the
// stack: the nearest word above, among the next `scan_words`, that points up the stack
// to a frame record whose return address is in `code` (the frame pointer that code
// saved). The chain goes on from that record, after the words below it that lie in
// `code` (the return addresses of the calls in between, perhaps an old one left in a
// slot), between two markers: `..., scanned_words_begin, word..., scanned_words_end,
// return addresses of the chain...`. Only the symbolizer can tell which words are
// return addresses (is_leaf_caller). At most `max_recoveries` times per walk, and never
// above a record whose saved frame pointer is 0 (the outermost frame).
constexpr unsigned scan_words = 128;
constexpr unsigned max_recoveries = 4;
constexpr uintptr_t scanned_words_begin = 1;  // never a return address
constexpr uintptr_t scanned_words_end = 0;
unsigned walk_frame_chain(uintptr_t pc, uintptr_t leaf_caller, uintptr_t fp, uintptr_t sp, const stack_bounds& bounds,
                          uintptr_t* frames, unsigned depth, const code_ranges* code = nullptr) noexcept;

// walk_frame_chain from the registers of a signal handler's `ucontext` argument.
// `depth` is at least 2.
unsigned walk_interrupted_stack(const void* ucontext, const stack_bounds& bounds, const code_ranges* code,
                                uintptr_t* frames, unsigned depth) noexcept;

// The interrupted stack pointer in a signal handler's `ucontext` argument.
uintptr_t interrupted_stack_pointer(const void* ucontext) noexcept;

// Whether `candidate`, the second entry of a walk or a word found by scanning, is a
// return address: the instruction before it is a call. `code_start` is where the executable code that
// holds it begins (a module's segment), so the bytes looked at are mapped.
bool is_leaf_caller(uintptr_t candidate, uintptr_t code_start) noexcept;

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_SAMPLER_FRAME_WALK_HPP
