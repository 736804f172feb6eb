#include "core/next_signal_functions.hpp"

#include <errno.h>

#include "core/next_function.hpp"
#include "core/startup.hpp"

namespace perf::runtime::next_signal {
namespace {

int (*next_sigaction)(int, const struct sigaction*, struct sigaction*);
sighandler_t (*next_signal)(int, sighandler_t);
sighandler_t (*next_bsd_signal)(int, sighandler_t);
sighandler_t (*next_sysv_signal)(int, sighandler_t);
int (*next_pthread_sigmask)(int, const sigset_t*, sigset_t*);
int (*next_sigprocmask)(int, const sigset_t*, sigset_t*);
int (*next_sigwait)(const sigset_t*, int*);
int (*next_sigwaitinfo)(const sigset_t*, siginfo_t*);
int (*next_sigtimedwait)(const sigset_t*, siginfo_t*, const timespec*);
int (*next_signalfd)(int, const sigset_t*, int);

// dlsym is not async-signal-safe: look everything up before a handler may need it.
PERF_RUNTIME_ON_START(resolve_next_signal_functions) {
  next_definition(next_sigaction, "sigaction");
  next_definition(next_signal, "signal");
  next_definition(next_bsd_signal, "bsd_signal");
  next_definition(next_sysv_signal, "sysv_signal");
  next_definition(next_pthread_sigmask, "pthread_sigmask");
  next_definition(next_sigprocmask, "sigprocmask");
  next_definition(next_sigwait, "sigwait");
  next_definition(next_sigwaitinfo, "sigwaitinfo");
  next_definition(next_sigtimedwait, "sigtimedwait");
  next_definition(next_signalfd, "signalfd");
}

}  // namespace

int sigaction(int signal, const struct sigaction* action, struct sigaction* old) noexcept {
  PERF_CALL_NEXT(next_sigaction, "sigaction", -1, signal, action, old);
}
sighandler_t signal(int signal, sighandler_t handler) noexcept {
  PERF_CALL_NEXT(next_signal, "signal", SIG_ERR, signal, handler);
}
sighandler_t bsd_signal(int signal, sighandler_t handler) noexcept {
  PERF_CALL_NEXT(next_bsd_signal, "bsd_signal", SIG_ERR, signal, handler);
}
sighandler_t sysv_signal(int signal, sighandler_t handler) noexcept {
  PERF_CALL_NEXT(next_sysv_signal, "sysv_signal", SIG_ERR, signal, handler);
}
int pthread_sigmask(int how, const sigset_t* set, sigset_t* old) noexcept {
  if (auto* function = next_definition(next_pthread_sigmask, "pthread_sigmask")) return function(how, set, old);
  return ENOSYS;  // pthread_sigmask returns its error
}
int sigprocmask(int how, const sigset_t* set, sigset_t* old) noexcept {
  PERF_CALL_NEXT(next_sigprocmask, "sigprocmask", -1, how, set, old);
}
int sigwait(const sigset_t* set, int* signal) {
  if (auto* function = next_definition(next_sigwait, "sigwait")) return function(set, signal);
  return ENOSYS;  // sigwait returns its error
}
int sigwaitinfo(const sigset_t* set, siginfo_t* info) {
  PERF_CALL_NEXT(next_sigwaitinfo, "sigwaitinfo", -1, set, info);
}
int sigtimedwait(const sigset_t* set, siginfo_t* info, const timespec* timeout) {
  PERF_CALL_NEXT(next_sigtimedwait, "sigtimedwait", -1, set, info, timeout);
}
int signalfd(int fd, const sigset_t* mask, int flags) noexcept {
  PERF_CALL_NEXT(next_signalfd, "signalfd", -1, fd, mask, flags);
}

}  // namespace perf::runtime::next_signal
