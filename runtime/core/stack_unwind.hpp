// The one unwinder of the runtime: the stacks of the sampler's signal handler, the
// heap sampler's sampled allocations and the gtest budgets' recorded allocations, all
// walked by the rules of the modules' call-frame information (.eh_frame, read by
// libunwind), which every function has whether its code keeps frame pointers or not (the
// C library, the loader and libstdc++ do not); every stack word checked before it is
// read, and each frame before it is kept.
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
// the place of libgcc's in the program's exception handling), and notes the memory and
// executable code of the modules loaded now: the call-frame information libunwind may
// read, the code a return address may lie in, without a lock. A module loaded later is
// not noted (one unloaded would leave a noted range unmapped under a handler reading
// it): the walk reads it only under the loader's lock (below). Idempotent; the first call allocates and takes
// the loader's lock, so it runs at start-up, before any signal handler or allocation
// hook may unwind. Returns "" or why stacks cannot be taken (then every unwind gives
// the stack's first frame and a truncation).
std::string prepare_unwinder();

// Marks where a stack was cut short: a frame failed its check (below), a word it needs
// lies outside the stack, or its rules are unknown. Never a return address (page zero
// is never code).
constexpr uintptr_t truncated_frame = 1;

// The walk. Each frame's caller is found by the rule of the address the frame is at
// (core/frame_rules.hpp): its CFA is the stack or frame pointer plus a constant, its
// return address and the caller's frame pointer are words at constant offsets from the
// CFA, which is nearly every frame. A rule is derived once per address, by one
// libunwind step over made-up registers and a made-up stack (the address's module's
// .eh_frame read by libunwind), and cached; a frame whose rule has another form is
// stepped by libunwind itself over the real stack. Every stack word read, by the walk
// or by libunwind, is checked first to lie in [the walk's first stack pointer, the top
// of the thread's stack): memory mapped for as long as the thread runs on it, so no read
// can fault, however corrupt the stack. A word outside ends the stack with
// `truncated_frame`, as does a frame that fails its check: its return address must lie
// in a loaded module's executable code, right after a call instruction, and its stack
// pointer above the frame before it (toward the stack's base). A stack that reaches its
// outermost frame (the thread's start: _start or clone, whose call-frame information
// ends the chain) ends without one; one that fills `depth` ends there (the caller
// tells). Bounded: at most `depth` frames, each a table look-up and two stack words, or
// the first time at an address, one libunwind step (a binary search of the module's
// .eh_frame_hdr, through dl_iterate_phdr). A frame in a module loaded after
// prepare_unwinder (dlopen) is stepped, and its return address checked, inside
// dl_iterate_phdr's callback for that module: glibc's dlclose unmaps a module under
// the lock held there, so no read of it can fault; two dl_iterate_phdr calls a frame.

// The mapping of /proc/self/maps that holds `address`, where it is readable and
// writable (a stack), read by system calls alone ({0, 0}: none): no lock, no
// allocation, so it may run in a signal handler or inside an allocation (which may come
// from inside pthread_getattr_np, holding the thread's lock). Async-signal-safe.
stack_bounds stack_mapping_holding(uintptr_t address) noexcept;

// Fills `frames` with the interrupted instruction of a signal handler's `ucontext`
// argument, then the return addresses of its callers, innermost first; returns how
// many (1 to `depth`, `depth` at least 2). `bounds` is the interrupted thread's stack
// (current_stack_bounds, found when the thread was armed): a stack pointer outside it
// gives the first frame and a truncation. Async-signal-safe, no allocation, no lock.
unsigned unwind_interrupted(const void* ucontext, const stack_bounds& bounds, uintptr_t* frames,
                            unsigned depth) noexcept;

// Fills `frames` with the return addresses of the calling thread's stack, innermost
// first (the first in unwind_calling_thread's caller); returns how many, up to
// `depth`. Its stack's bounds are the mapping that holds its stack pointer, read from
// /proc/self/maps by system calls on its first walk (and when the stack pointer left
// it): no lock the allocator or the thread holds, no allocation, so it may run inside
// an allocation.
unsigned unwind_calling_thread(uintptr_t* frames, unsigned depth) noexcept;

// While one lives, the walks on the calling thread's stack (its signal handler's, its
// allocations') search no list of the loader's (dl_iterate_phdr, directly or by
// libunwind's derivation of a rule): they derive no rule and read nothing of a module
// loaded after start-up. Made around dlclose (the sampler's dlclose hook, on every
// thread), which holds the list's lock between unmapping a module and unlinking it, and
// around every dl_iterate_phdr (core/loader_search_interpose.cpp), whose recursive lock
// a handler's nested search could meet half taken or half released and wait on for
// ever. Use it as a local; scopes nest. Async-signal-safe.
class no_loader_search {
 public:
  no_loader_search() noexcept;
  ~no_loader_search();
  no_loader_search(const no_loader_search&) = delete;
  no_loader_search& operator=(const no_loader_search&) = delete;
};

// Inside a no_loader_search around dl_iterate_phdr, while its callback runs: the lock
// is held whole, so a nested search (which counts it up) is safe again.
class loader_lock_held {
 public:
  loader_lock_held() noexcept;
  ~loader_lock_held();
  loader_lock_held(const loader_lock_held&) = delete;
  loader_lock_held& operator=(const loader_lock_held&) = delete;
};

// A frame's instruction (the interrupted one, or a return address), stack pointer and
// frame pointer.
struct frame_registers {
  uintptr_t pc;
  uintptr_t sp;
  uintptr_t fp;
};
// The interrupted frame's, from a signal handler's `ucontext` argument. Async-signal-safe.
frame_registers read_interrupted(const void* ucontext) noexcept;

// Whether `address` lies in libunwind's code. Its calls of sigprocmask (it blocks every
// signal around its search of the loaded modules and its locks) are the runtime's, not
// the program's. Async-signal-safe.
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
