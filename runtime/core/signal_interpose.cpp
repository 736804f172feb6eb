// The C library's signal functions, interposed (as perf::alloc interposes malloc) so
// that the runtime's signals never reach the program: sigaction() and the signal()
// family keep the runtime's handler in front of the program's; pthread_sigmask() and
// sigprocmask() pause a thread's sampling while it blocks the sampler's signal;
// sigwait(), sigwaitinfo(), sigtimedwait() and signalfd() never return it.
#include <signal.h>
#include <sys/signalfd.h>

#include "core/next_signal_functions.hpp"
#include "core/signal_interpose.hpp"
#include "perf/detail/compiler.hpp"

namespace {

using namespace perf::runtime;

// signal(), bsd_signal() and sysv_signal() as glibc makes them: a sigaction with
// `flags` whose mask holds the signal itself unless SA_NODEFER.
sighandler_t set_handler(int signal, sighandler_t handler, int flags) noexcept {
  struct sigaction action {
  }, old{};
  action.sa_handler = handler;
  action.sa_flags = flags;
  sigemptyset(&action.sa_mask);
  if ((flags & SA_NODEFER) == 0) sigaddset(&action.sa_mask, signal);
  if (program_sigaction(signal, &action, &old) != 0) return SIG_ERR;
  return old.sa_handler;
}

}  // namespace

extern "C" {

PERF_DETAIL_EXPORT int sigaction(int signal, const struct sigaction* action, struct sigaction* old) {
  return program_sigaction(signal, action, old);
}

PERF_DETAIL_EXPORT sighandler_t signal(int signal, sighandler_t handler) {
  if (!handled_by_runtime(signal)) return next_signal::signal(signal, handler);
  return set_handler(signal, handler, SA_RESTART);
}

PERF_DETAIL_EXPORT sighandler_t bsd_signal(int signal, sighandler_t handler) {
  if (!handled_by_runtime(signal)) return next_signal::bsd_signal(signal, handler);
  return set_handler(signal, handler, SA_RESTART);
}

PERF_DETAIL_EXPORT sighandler_t sysv_signal(int signal, sighandler_t handler) {
  if (!handled_by_runtime(signal)) return next_signal::sysv_signal(signal, handler);
  return set_handler(signal, handler, SA_RESETHAND | SA_NODEFER);
}

PERF_DETAIL_EXPORT int pthread_sigmask(int how, const sigset_t* set, sigset_t* old) {
  return change_signal_mask(next_signal::pthread_sigmask, how, set, old,
                            reinterpret_cast<uintptr_t>(__builtin_return_address(0)));
}

PERF_DETAIL_EXPORT int sigprocmask(int how, const sigset_t* set, sigset_t* old) {
  return change_signal_mask(next_signal::sigprocmask, how, set, old,
                            reinterpret_cast<uintptr_t>(__builtin_return_address(0)));
}

PERF_DETAIL_EXPORT int sigwait(const sigset_t* set, int* signal) {
  sigset_t room;
  return next_signal::sigwait(without_private_signal(set, &room), signal);
}

PERF_DETAIL_EXPORT int sigwaitinfo(const sigset_t* set, siginfo_t* info) {
  sigset_t room;
  return next_signal::sigwaitinfo(without_private_signal(set, &room), info);
}

PERF_DETAIL_EXPORT int sigtimedwait(const sigset_t* set, siginfo_t* info, const timespec* timeout) {
  sigset_t room;
  return next_signal::sigtimedwait(without_private_signal(set, &room), info, timeout);
}

PERF_DETAIL_EXPORT int signalfd(int fd, const sigset_t* mask, int flags) {
  sigset_t room;
  return next_signal::signalfd(fd, without_private_signal(mask, &room), flags);
}

}  // extern "C"
