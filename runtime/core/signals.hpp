// The runtime's signal handling, in one place for every component that needs it:
// the crash dump's fatal signals and the sampler's signal.
//
// The runtime stays in front of the program on the signals it handles: the program's
// sigaction() and signal() on them are interposed (signal_interpose.cpp), so the
// program's handler is recorded, not installed, and the runtime's handler runs, calling
// the program's exactly as the program installed it (its mask and flags are the
// kernel's for the signal, SA_SIGINFO or not, SA_RESETHAND, SA_ONSTACK...). The program
// sees its own action in sigaction()'s old action, never the runtime's.
#ifndef PERF_RUNTIME_CORE_SIGNALS_HPP
#define PERF_RUNTIME_CORE_SIGNALS_HPP

#include <signal.h>

namespace perf::runtime {

// Has `handler` run when the process's first fatal signal (SIGSEGV, SIGABRT, SIGBUS,
// SIGFPE) meets its default action, on the thread's alternate signal stack where it has
// one. A handler the program installs after start-up gets the signal first (it may
// recover; its re-raise or a repeated fault then meets the default action); one that
// was in place before start-up (a sanitizer's) runs after `handler`. `handler` must be
// async-signal-safe; it gets the signal's information as the kernel gave it (si_addr,
// si_code, si_pid), or null. At most four handlers; they run in the order they were added. A
// program that replaces the handler behind sigaction()'s back (a raw system call) is
// told at exit, on stderr, that the crash record was given up. Call it only from a
// PERF_RUNTIME_ON_START function.
void add_fatal_signal_handler(void (*handler)(int signal, const siginfo_t* info) noexcept);

// The name of a signal add_fatal_signal_handler's handlers get ("SIGSEGV"), or "a
// fatal signal". Async-signal-safe: a string that lives as long as the process.
const char* fatal_signal_name(int signal) noexcept;

// Gives every thread attached from now on a stack of its own for signal handlers,
// so that a fatal-signal handler runs even when the thread dies of a stack
// overflow; a thread that has one already (a sanitizer's, the program's) keeps it.
// Call it only from a PERF_RUNTIME_ON_START function.
void use_alternate_signal_stacks();

// Who uses the runtime's private signal (the sampler), and how it hears of the
// program's doings with it. `handler` and `blocked` must be async-signal-safe (a
// program may change its mask in its own handlers).
struct private_signal_user {
  // The runtime's part of the handler: returns whether the signal was the runtime's
  // own; any other (a kill(), the program's own timer) goes to the program's action
  // for the signal, and is ignored while the program has none.
  bool (*handler)(int signal, siginfo_t* info, void* context) noexcept;
  // The calling thread is about to block the signal (true: before the mask changes,
  // so that nothing of the runtime's is left pending on it), or has unblocked it
  // (false: after). sigwait() and friends, which need the signal blocked, wait for it
  // with the signal blocked.
  void (*blocked)(bool blocked) noexcept;
  // The program installs a handler of its own on the signal: called once, before that
  // handler is in place, from the thread that installs it (it may take locks: programs
  // install handlers from ordinary code); the user must stop sending the signal. From
  // then on the signal is the program's: its masks and waits are left alone.
  void (*taken_over)() noexcept;
};

// Takes a signal the program does not handle for signals the runtime sends itself (the
// sampler's events and timers) and returns it; 0 if none is free. `wanted` if it is not
// 0 and free; otherwise the first of SIGURG, SIGPROF, then the real-time signals from
// SIGRTMAX down whose disposition is SIG_DFL. SIGURG first: its default action is to
// ignore, so one still in flight when the program calls exec() (timers and events go,
// queued signals stay) is dropped instead of killing the new program, as a pending
// SIGPROF or real-time signal would. Installed with SA_RESTART (interrupted read(),
// write(), ... go on) and SA_ONSTACK. From then on the signal is never returned to the
// program by sigwait(), sigwaitinfo(), sigtimedwait() or a signalfd (it is left out of
// their sets), and `user` hears of the program blocking it or taking it over. Once per
// process, from a PERF_RUNTIME_ON_START function.
int add_private_signal_handler(int wanted, const private_signal_user& user);

// Whether the calling thread blocks the private signal now. Async-signal-safe.
bool private_signal_blocked() noexcept;

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_SIGNALS_HPP
