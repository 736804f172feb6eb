// The one unwinder of the runtime: the stacks of the sampler's signal handler, the
// heap sampler's sampled allocations and the gtest budgets' recorded allocations, all
// taken from the modules' call-frame information (.eh_frame) by libunwind, which every
// function has whether its code keeps frame pointers or not (the C library, the loader
// and libstdc++ do not), and each frame checked before it is kept.
#ifndef PERF_RUNTIME_CORE_STACK_UNWIND_HPP
#define PERF_RUNTIME_CORE_STACK_UNWIND_HPP

#include <stdint.h>

#include <string>

namespace perf::runtime {

// The part of a thread's stack that is mapped: [low, high). {0, 0}: not known.
struct stack_bounds {
  uintptr_t low;
  uintptr_t high;
};

// The calling thread's stack as its attributes give it. Not async-signal-safe (the
// main thread's is read from /proc): called when a thread is armed, not in a handler.
stack_bounds current_stack_bounds() noexcept;

// Loads libunwind (privately: RTLD_LOCAL, so that its _Unwind_* functions never take
// the place of libgcc's in the program's exception handling), and notes the executable
// code of the modules loaded now: the code a return address may lie in. A module
// loaded later is not noted (one unloaded could leave a noted range unmapped under a
// handler reading it): a return address into it ends a stack with a truncation.
// Idempotent; the first call allocates and takes the loader's lock, so it runs at
// start-up, before any signal handler or allocation hook may unwind. Returns "" or why
// stacks cannot be taken (then every unwind gives the stack's first frame and a
// truncation).
std::string prepare_unwinder();

// Readies the fast walk (below) on the calling thread: libunwind's per-thread cache of
// frame kinds, and the function its chain ends in. Not async-signal-safe (the C library
// allocates a dlopened library's thread-local storage with malloc): called where a
// thread is armed for sampling, and by unwind_calling_thread; prepare_unwinder readies
// its own thread. Without it a thread's handler takes the slow walk.
void prepare_unwinder_on_this_thread() noexcept;

// The deepest stack the fast walk gives.
constexpr unsigned max_unwind_depth = 256;

// Marks where a stack was cut short: a frame failed its check (below) or libunwind
// could not step. Never a return address (page zero is never code).
constexpr uintptr_t truncated_frame = 1;

// A frame is kept only if its return address lies in the executable code noted above,
// right after a call instruction, and its stack pointer lies above the frame before it
// (toward the stack's base) and, with known `bounds`, inside them. The first frame that
// fails ends the stack with `truncated_frame`. A stack that reaches its outermost frame
// (the thread's start: _start or clone, whose call-frame information ends the chain)
// ends without one; one that fills `depth` ends there (the caller tells).

// Two walks give the same frames. The fast one (unw_backtrace) looks each return
// address up in libunwind's per-thread cache of frame kinds (the CFA is the stack or
// frame pointer plus a constant, the return address and saved frame pointer at
// constant offsets from it: nearly every frame), and reads two stack words a frame;
// an address not in the cache is stepped once by the slow walk and added. It gives no
// stack pointers: its frames are checked by their return addresses, and a chain that
// ends other than in a function where a thread's chain was seen to end (its root:
// _start, clone3) ends with a truncation. The slow one (unw_step) finds each frame's
// rules in libunwind's global cache (a lock taken with every signal blocked) or, the
// first time, in the module's .eh_frame_hdr table, and checks stack pointers too.

// Fills `frames` with the interrupted instruction of a signal handler's `ucontext`
// argument, then the return addresses of its callers, innermost first; returns how
// many (1 to `depth`, `depth` at least 2). Async-signal-safe: bounded (at most
// `depth` + 32 frames) and reading only the stack words and code bytes the call-frame
// information names. The fast walk on a thread readied (above) and not interrupted
// in a walk of its own; the slow walk otherwise.
unsigned unwind_interrupted(const void* ucontext, const stack_bounds& bounds, uintptr_t* frames,
                            unsigned depth) noexcept;

// Fills `frames` with the return addresses of the calling thread's stack, innermost
// first (the first in unwind_calling_thread's caller); returns how many, up to
// `depth`. Takes no lock the allocator holds and, once the thread is readied (its first
// call readies it), does not allocate, so it may run inside an allocation. `bounds` as
// above ({0, 0}: unknown), for the slow walk (a walk inside a walk of its own).
unsigned unwind_calling_thread(const stack_bounds& bounds, uintptr_t* frames, unsigned depth) noexcept;

// libunwind's own descriptors: the pipe through which it checks that an address is
// mapped (it writes the address's byte into it and reads it back), found when the
// unwinder is prepared. Fills `descriptors` in ascending order; returns how many (0
// or 2). Async-signal-safe.
unsigned unwinder_descriptors(int (&descriptors)[2]) noexcept;
bool is_unwinder_descriptor(int descriptor) noexcept;

// Stops the unwinder for good, before something else takes one of its descriptors:
// every stack then ends at its first frame with a truncation. Async-signal-safe.
void stop_unwinder() noexcept;

// The interrupted instruction and stack pointer in a signal handler's `ucontext`
// argument. Async-signal-safe.
struct interrupted_registers {
  uintptr_t pc;
  uintptr_t sp;
};
interrupted_registers read_interrupted(const void* ucontext) noexcept;

// Whether `address` lies in libunwind's code. Its calls of sigprocmask (it blocks every
// signal around its locks: in a walk, and when a thread's cache is freed as the thread
// exits) are the runtime's, not the program's. Async-signal-safe.
bool in_unwinder(uintptr_t address) noexcept;

// Whether `candidate` is a return address: the instruction before it is a call.
// `code_begin` is where the executable code that holds it begins, so the bytes looked
// at are mapped. Async-signal-safe.
bool follows_call(uintptr_t candidate, uintptr_t code_begin) noexcept;

// Where the noted executable code holding `address` begins; 0 where none holds it.
// Async-signal-safe.
uintptr_t code_start_of(uintptr_t address) noexcept;

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_STACK_UNWIND_HPP
