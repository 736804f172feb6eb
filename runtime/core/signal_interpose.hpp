// What the interposed signal functions (signal_interpose.cpp) ask of the runtime's
// signal handling (signals.cpp). Every function is async-signal-safe where the C
// library's namesake is, and sets errno or returns an error as that one does.
#ifndef PERF_RUNTIME_CORE_SIGNAL_INTERPOSE_HPP
#define PERF_RUNTIME_CORE_SIGNAL_INTERPOSE_HPP

#include <signal.h>
#include <stdint.h>

namespace perf::runtime {

// sigaction() as the program sees it: on a signal the runtime handles, the program's
// action is recorded and put behind the runtime's handler, and `old` is the
// program's own previous action; on any other signal, the next sigaction().
int program_sigaction(int signal, const struct sigaction* action, struct sigaction* old) noexcept;

// Whether the runtime handles `signal` (program_sigaction() is then the way to set it).
bool handled_by_runtime(int signal) noexcept;

// Changes the calling thread's mask with `change` (pthread_sigmask or sigprocmask,
// the next definition), telling the private signal's user before the private
// signal is blocked and after it is unblocked, unless `caller` (the return address
// of the interposed function) is the runtime's unwinder's code. Returns what `change`
// returns.
int change_signal_mask(int (*change)(int, const sigset_t*, sigset_t*) noexcept, int how, const sigset_t* set,
                       sigset_t* old, uintptr_t caller) noexcept;

// `set` without the private signal: `set` itself when it does not hold it, otherwise
// `room` filled with the rest. For the sets sigwait() and friends and signalfd() take.
const sigset_t* without_private_signal(const sigset_t* set, sigset_t* room) noexcept;

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_SIGNAL_INTERPOSE_HPP
