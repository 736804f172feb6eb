// The runtime's signal handling, in one place for every component that needs it:
// the crash dump's fatal signals and the sampler's timer signal.
#ifndef PERF_RUNTIME_CORE_SIGNALS_HPP
#define PERF_RUNTIME_CORE_SIGNALS_HPP

#include <signal.h>

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

// Installs `handler` (SA_SIGINFO) on a signal the program does not handle, for
// signals the runtime sends itself (the sampler's timers), and returns it; 0 if none
// is free. The first of SIGURG, SIGPROF, then the real-time signals from SIGRTMAX
// down whose disposition is SIG_DFL. SIGURG first: its default action is to ignore,
// so one still in flight when the program calls exec() (timers go, queued signals
// stay) is dropped instead of killing the new program, as a pending SIGPROF would.
// Installed with SA_RESTART (interrupted read(), write(), ... go on) and SA_ONSTACK.
// `handler` must be async-signal-safe and should ignore signals whose si_code is not
// the one it expects (someone's kill()). Once per process.
int add_private_signal_handler(void (*handler)(int signal, siginfo_t* info, void* context));

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_SIGNALS_HPP
