// A program that uses signals the way daemons and crash reporters do, sampled at the
// rate the tests choose, for the tests of the runtime's signal interposition.
// argv[1] picks the scenario; what it saw goes to stderr:
//   signal_probe wait sigwait|sigwaitinfo|sigtimedwait|signalfd
//       A daemon: main blocks every signal, starts a thread that burns CPU and then
//       sends the process SIGTERM, and itself burns CPU before waiting on the full set
//       with the chosen call. Prints "returned <signal>" for every signal the call
//       gives it until SIGTERM, then "sigterm after <ms> ms"; SIGALRM (3 s) ends it.
//       Then "source <perf_event|timer>", what sent the sampler's signals.
//   signal_probe own-handler
//       Burns CPU, then installs a handler on SIGURG (the sampler's signal), burns CPU
//       again and raises SIGURG once. Prints "previous default|other", "handler
//       <calls> <calls with a sampling source's si_code: SI_TIMER or POLL_IN>",
//       "stopped <why>" (the sampler's) and "source <perf_event|timer>".
//   signal_probe blocked
//       main blocks every signal, starts a thread (armed with the signal blocked), and
//       both burn 0.2 s of CPU: prints "pending main|thread yes|no", whether the
//       sampler's signal (SIGURG) waits on the thread, then unblocks the signal on
//       main, burns 0.2 s more and prints "samples after unblocking yes|no", and
//       "source <perf_event|timer>".
//   signal_probe crash abort|segv
//       A crash reporter's handler (glog's InstallFailureSignalHandler shape), installed
//       after start-up on SIGABRT and SIGSEGV: prints "program handler <signal>",
//       restores the default action and raises the signal again. Prints "previous
//       default|other" for what sigaction said was on SIGABRT before. Then ticks 1..3 and
//       aborts, or writes to a read-only page.
//   signal_probe recover
//       A garbage collector's SIGSEGV handler: a store to a read-only page is let
//       through (the handler makes the page writable) and the program goes on; prints
//       "recovered <value>".
//   signal_probe raw-handler
//       Installs a SIGFPE handler with the rt_sigaction system call, behind the C
//       library's back, and exits.
//   signal_probe burn
//       Measured functions burning 0.05 s of CPU on the main thread and on another,
//       through a chain of calls: the sampler's work under valgrind.
//   signal_probe crash-resethand segv
//       As `crash`, with a handler installed with SA_RESETHAND | SA_ONSTACK that only
//       prints and returns: the fault repeats and meets the default action.
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

#include "perf/perf.hpp"
#include "perf/sampler.hpp"

namespace {

std::atomic<uint64_t> sink{0};

__attribute__((noinline)) void burn_cpu(double seconds) {
  timespec start{}, now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
  uint64_t state = sink.load(std::memory_order_relaxed);
  do {
    for (int i = 0; i < 100000; ++i) state = state * 6364136223846793005u + 1442695040888963407u;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  } while (static_cast<double>(now.tv_sec - start.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec - start.tv_nsec) <
           seconds);
  sink.store(state, std::memory_order_relaxed);
}

double monotonic_ms() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return 1e3 * static_cast<double>(now.tv_sec) + 1e-6 * static_cast<double>(now.tv_nsec);
}

// What sent the sampler's signals, as the report says it.
void print_source() { std::fprintf(stderr, "source %s\n", perf::take_sample_summary(1).source.c_str()); }

std::atomic<double> sigterm_sent_ms{0};

// The next signal of `all` by `how`; -1 on an error other than EINTR.
int wait_for_signal(const std::string& how, const sigset_t& all, int signal_fd) {
  if (how == "sigwait") {
    int signal = 0;
    return sigwait(&all, &signal) == 0 ? signal : -1;
  }
  if (how == "sigwaitinfo") return sigwaitinfo(&all, nullptr);
  if (how == "sigtimedwait") {
    const timespec tenth{0, 100000000};
    return sigtimedwait(&all, nullptr, &tenth);
  }
  signalfd_siginfo info{};
  return read(signal_fd, &info, sizeof info) == sizeof info ? static_cast<int>(info.ssi_signo) : -1;
}

int daemon_wait(const std::string& how) {
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, nullptr);
  const int signal_fd = how == "signalfd" ? signalfd(-1, &all, 0) : -1;
  std::thread sender([] {
    burn_cpu(0.2);
    sigterm_sent_ms = monotonic_ms();
    kill(getpid(), SIGTERM);
  });
  burn_cpu(0.1);  // the main thread's timer expires while every signal is blocked
  alarm(3);
  int status = 1;
  for (;;) {
    const int signal = wait_for_signal(how, all, signal_fd);
    if (signal == SIGTERM) {
      std::fprintf(stderr, "sigterm after %.0f ms\n", monotonic_ms() - sigterm_sent_ms.load());
      status = 0;
      break;
    }
    if (signal == SIGALRM) {
      std::fprintf(stderr, "no sigterm within 3 s\n");
      break;
    }
    if (signal > 0) std::fprintf(stderr, "returned %d\n", signal);
  }
  sender.join();
  print_source();
  return status;
}

__attribute__((noinline)) void burn_measured(int depth) {
  PERF_MEASURE("burn_measured");
  if (depth == 0) return burn_cpu(0.025);
  burn_measured(depth - 1);
}

int burn() {
  std::thread other([] { burn_measured(8); });
  burn_measured(8);
  other.join();
  return 0;
}

// Whether SIGURG, the sampler's signal, waits on the calling thread.
const char* urgent_pending() {
  sigset_t pending;
  sigpending(&pending);
  return sigismember(&pending, SIGURG) == 1 ? "yes" : "no";
}

int blocked() {
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, nullptr);
  std::string thread_pending;
  std::thread worker([&] {  // created with every signal blocked
    burn_cpu(0.2);
    thread_pending = urgent_pending();
  });
  burn_cpu(0.2);
  worker.join();
  std::fprintf(stderr, "pending main %s\npending thread %s\n", urgent_pending(), thread_pending.c_str());
  sigset_t urgent;
  sigemptyset(&urgent);
  sigaddset(&urgent, SIGURG);
  const uint64_t before = perf::take_sample_summary(1).total;
  pthread_sigmask(SIG_UNBLOCK, &urgent, nullptr);
  burn_cpu(0.2);
  std::fprintf(stderr, "samples after unblocking %s\n", perf::take_sample_summary(1).total > before ? "yes" : "no");
  print_source();
  return 0;
}

std::atomic<int> handler_calls{0};
std::atomic<int> handler_calls_by_sampler{0};

void on_urgent(int, siginfo_t* info, void*) {
  ++handler_calls;
  if (info->si_code == SI_TIMER || info->si_code == POLL_IN) ++handler_calls_by_sampler;
}

int own_handler() {
  burn_cpu(0.1);
  struct sigaction action {
  }, previous{};
  action.sa_sigaction = on_urgent;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  sigaction(SIGURG, &action, &previous);
  std::fprintf(stderr, "previous %s\n",
               (previous.sa_flags & SA_SIGINFO) == 0 && previous.sa_handler == SIG_DFL ? "default" : "other");
  burn_cpu(0.3);
  raise(SIGURG);
  std::fprintf(stderr, "handler %d %d\n", handler_calls.load(), handler_calls_by_sampler.load());
  std::fprintf(stderr, "stopped %s\n", perf::take_sample_summary(1).stopped.c_str());
  print_source();
  return 0;
}

// Async-signal-safe output of a short line.
void say(const char* text) { (void)!write(STDERR_FILENO, text, std::strlen(text)); }

void reraising_crash_handler(int signal, siginfo_t*, void*) {
  say(signal == SIGABRT ? "program handler SIGABRT\n" : "program handler SIGSEGV\n");
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  sigaction(signal, &default_action, nullptr);
  kill(getpid(), signal);
}

void returning_crash_handler(int signal) {
  say(signal == SIGABRT ? "program handler SIGABRT\n" : "program handler SIGSEGV\n");
}

void* read_only_page = nullptr;

void make_page_writable(int, siginfo_t* info, void*) {
  if (info->si_addr == read_only_page) mprotect(read_only_page, 4096, PROT_READ | PROT_WRITE);
}

int recover() {
  read_only_page = mmap(nullptr, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  struct sigaction action {};
  action.sa_sigaction = make_page_writable;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, nullptr);
  perf::tick(1, "before");
  *static_cast<volatile int*>(read_only_page) = 42;
  std::fprintf(stderr, "recovered %d\n", *static_cast<volatile int*>(read_only_page));
  return 0;
}

// The kernel's struct sigaction on x86-64 and AArch64: handler, flags, restorer, mask.
struct kernel_sigaction {
  void (*handler)(int);
  unsigned long flags;
  void (*restorer)();
  uint64_t mask;
};

int raw_handler() {
  const kernel_sigaction action{returning_crash_handler, 0, nullptr, 0};  // never delivered: no restorer needed
  return syscall(SYS_rt_sigaction, SIGFPE, &action, nullptr, sizeof action.mask) == 0 ? 0 : 1;
}

int crash(bool reset_hand, const std::string& how) {
  struct sigaction action {
  }, previous{};
  sigemptyset(&action.sa_mask);
  if (reset_hand) {
    action.sa_handler = returning_crash_handler;
    action.sa_flags = SA_RESETHAND | SA_ONSTACK;
  } else {
    action.sa_sigaction = reraising_crash_handler;
    action.sa_flags = SA_SIGINFO;
  }
  sigaction(SIGSEGV, &action, nullptr);
  sigaction(SIGABRT, &action, &previous);  // SIGABRT: AddressSanitizer has a SIGSEGV handler of its own
  std::fprintf(stderr, "previous %s\n",
               (previous.sa_flags & SA_SIGINFO) == 0 && previous.sa_handler == SIG_DFL ? "default" : "other");
  for (int i = 1; i <= 3; ++i) perf::tick(i, "before");
  PERF_MEASURE("crashing");
  if (how == "abort") std::abort();
  void* page = mmap(nullptr, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  *static_cast<volatile int*>(page) = 1;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string scenario = argc > 1 ? argv[1] : "", option = argc > 2 ? argv[2] : "";
  if (scenario == "wait") return daemon_wait(option);
  if (scenario == "own-handler") return own_handler();
  if (scenario == "blocked") return blocked();
  if (scenario == "burn") return burn();
  if (scenario == "raw-handler") return raw_handler();
  if (scenario == "recover") return recover();
  if (scenario == "crash") return crash(false, option);
  if (scenario == "crash-resethand") return crash(true, option);
  std::fprintf(stderr,
               "usage: %s wait sigwait|sigwaitinfo|sigtimedwait|signalfd | own-handler | blocked | burn | raw-handler "
               "| recover | "
               "crash abort|segv | crash-resethand segv\n",
               argv[0]);
  return 2;
}
