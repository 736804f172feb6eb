// The signal functions behind the runtime's interposed ones (signal_interpose.cpp):
// the next definition of each in symbol order, a sanitizer's interceptor or the C
// library's, found with dlsym(RTLD_NEXT). The runtime calls these for its own work.
#ifndef PERF_RUNTIME_CORE_NEXT_SIGNAL_FUNCTIONS_HPP
#define PERF_RUNTIME_CORE_NEXT_SIGNAL_FUNCTIONS_HPP

#include <signal.h>
#include <time.h>

namespace perf::runtime::next_signal {

// Each is resolved when the runtime starts (or on first use, if the program calls it
// earlier); from then on they are async-signal-safe wherever the C library's are.
// Without a next definition (a static executable) a call fails with ENOSYS.
int sigaction(int signal, const struct sigaction* action, struct sigaction* old) noexcept;
sighandler_t signal(int signal, sighandler_t handler) noexcept;
sighandler_t bsd_signal(int signal, sighandler_t handler) noexcept;
sighandler_t sysv_signal(int signal, sighandler_t handler) noexcept;
int pthread_sigmask(int how, const sigset_t* set, sigset_t* old) noexcept;
int sigprocmask(int how, const sigset_t* set, sigset_t* old) noexcept;
int sigwait(const sigset_t* set, int* signal);
int sigwaitinfo(const sigset_t* set, siginfo_t* info);
int sigtimedwait(const sigset_t* set, siginfo_t* info, const timespec* timeout);
int signalfd(int fd, const sigset_t* mask, int flags) noexcept;

}  // namespace perf::runtime::next_signal

#endif  // PERF_RUNTIME_CORE_NEXT_SIGNAL_FUNCTIONS_HPP
