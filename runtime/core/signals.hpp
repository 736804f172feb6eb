// The runtime's signal handling, in one place for every component that needs it
// (the crash dump today; the sampler's timer signal later).
#ifndef PERF_RUNTIME_CORE_SIGNALS_HPP
#define PERF_RUNTIME_CORE_SIGNALS_HPP

namespace perf::runtime {

// Has `handler` run when the process gets its first fatal signal (SIGSEGV, SIGABRT,
// SIGBUS, SIGFPE), on the thread's alternate signal stack where it has one; the
// signal then takes the course it had before (the previous action, restored).
// `handler` must be async-signal-safe. At most four handlers; they run in the order
// they were added. Call it only from a PERF_RUNTIME_ON_START function.
void add_fatal_signal_handler(void (*handler)(int signal) noexcept);

// Gives every thread attached from now on a stack of its own for signal handlers,
// so that a fatal-signal handler runs even when the thread dies of a stack
// overflow; a thread that has one already (a sanitizer's, the program's) keeps it.
// Call it only from a PERF_RUNTIME_ON_START function.
void use_alternate_signal_stacks();

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_SIGNALS_HPP
