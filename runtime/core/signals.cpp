#include "core/signals.hpp"

#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <iterator>
#include <string>

#include "core/next_signal_functions.hpp"
#include "core/signal_interpose.hpp"
#include "core/stack_unwind.hpp"
#include "core/startup.hpp"
#include "core/threads.hpp"

namespace perf::runtime {
namespace {

constexpr int fatal_signals[] = {SIGSEGV, SIGABRT, SIGBUS, SIGFPE};

// A signal the runtime handles, and the action the program gave it (or had given it
// before the runtime took it). The kernel's action for the signal is always
// on_handled_signal, with the program's mask and flags when the program has a handler.
// Trivial, so zeroed before any constructor runs (the runtime's start-up runs first).
struct handled_signal {
  int number;  // atomic; 0: the slot is free
  bool is_private;
  // The program's action is program[current]; a change is written into the other
  // slot, then published. Writers take `writing`.
  struct sigaction program[2];
  unsigned current;  // atomic
  int writing;       // atomic
  // atomic: the program set the action since the runtime took the signal. Its handler
  // then runs before the crash handlers (below); one that was there before (a
  // sanitizer's) runs after them.
  bool set_by_program;
};

handled_signal handled[std::size(fatal_signals) + 1];
private_signal_user private_user{};
int private_number = 0;           // atomic; 0 until the private signal is taken
bool private_taken_over = false;  // atomic

void (*fatal_handlers[4])(int, const siginfo_t*) noexcept = {};
unsigned fatal_handler_count = 0;
int handling = 0;  // atomic: the first fatal signal runs the handlers, later ones do not

bool alternate_stacks_wanted = false;
PERF_DETAIL_TLS void* alternate_stack = nullptr;  // the calling thread's, when it is ours

handled_signal* find(int signal) noexcept {
  for (handled_signal& h : handled)
    if (signal != 0 && __atomic_load_n(&h.number, __ATOMIC_ACQUIRE) == signal) return &h;
  return nullptr;
}

bool has_handler(const struct sigaction& action) noexcept {
  return action.sa_handler != SIG_DFL && action.sa_handler != SIG_IGN;
}

struct sigaction default_action() noexcept {
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  return action;
}

struct sigaction program_action(const handled_signal& h) noexcept {
  return h.program[__atomic_load_n(&h.current, __ATOMIC_ACQUIRE)];
}

// One writer at a time. A handler that interrupts a writer on the same thread and
// changes the same signal's action would wait here forever: the program would have
// to call sigaction() on a crash signal, or the sampler's, from a handler that
// interrupted its own sigaction() call on it.
void lock(handled_signal& h) noexcept {
  while (__atomic_exchange_n(&h.writing, 1, __ATOMIC_ACQUIRE) != 0) sched_yield();
}
void unlock(handled_signal& h) noexcept { __atomic_store_n(&h.writing, 0, __ATOMIC_RELEASE); }

// Under lock(h).
void record_program_action(handled_signal& h, const struct sigaction& action) noexcept {
  const unsigned next = 1 - __atomic_load_n(&h.current, __ATOMIC_RELAXED);
  h.program[next] = action;
  __atomic_store_n(&h.current, next, __ATOMIC_RELEASE);
}

void on_handled_signal(int signal, siginfo_t* info, void* context);

// What the kernel runs for `h` while the program's action is `program`: the
// runtime's handler, with the program's mask and flags when it has a handler (the
// kernel then does for it what it would have: the mask, SA_ONSTACK, SA_RESTART,
// SA_NODEFER; SA_RESETHAND is done by on_handled_signal, so that a sample meeting a
// one-shot handler does not use it up).
struct sigaction kernel_action(const handled_signal& h, const struct sigaction& program) noexcept {
  struct sigaction action {};
  action.sa_sigaction = on_handled_signal;
  if (has_handler(program)) {
    action.sa_mask = program.sa_mask;
    action.sa_flags = (program.sa_flags & ~SA_RESETHAND) | SA_SIGINFO;
  } else {
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | (h.is_private ? SA_RESTART : 0);
  }
  return action;
}

// Puts the runtime in front of `signal`, keeping what was there as the program's
// action. At start-up.
bool take(handled_signal& h, int signal, bool is_private) noexcept {
  struct sigaction previous {};
  if (next_signal::sigaction(signal, nullptr, &previous) != 0) return false;
  h.is_private = is_private;
  h.program[0] = previous;
  __atomic_store_n(&h.number, signal, __ATOMIC_RELEASE);  // before the handler can run
  const struct sigaction action = kernel_action(h, previous);
  if (next_signal::sigaction(signal, &action, nullptr) == 0) return true;
  __atomic_store_n(&h.number, 0, __ATOMIC_RELEASE);
  return false;
}

// Whether the signal was sent (kill, raise, abort, sigqueue) rather than raised by
// the kernel for a fault of the interrupted instruction.
bool sent(const siginfo_t* info) noexcept { return info == nullptr || info->si_code <= 0; }

// The crash handlers, on the process's first fatal signal that meets them.
void run_fatal_handlers(int signal, const siginfo_t* info) noexcept {
  if (__atomic_exchange_n(&handling, 1, __ATOMIC_ACQ_REL) == 0)
    for (unsigned i = 0; i < fatal_handler_count; ++i) fatal_handlers[i](signal, info);
}

// A fatal signal goes first to a handler the program installed after start-up, which
// may well recover (a garbage collector's or a WebAssembly runtime's SIGSEGV, a test
// harness's SIGABRT) and must not meet a crash record then; the record is written
// when the signal then takes its default course (the handler re-raises it, or returns
// from a fault that repeats). A handler that was there before the runtime started (a
// sanitizer's, which ends the process itself) runs after the record.
void on_handled_signal(int signal, siginfo_t* info, void* context) {
  handled_signal* const h = find(signal);
  if (h == nullptr) return;
  const struct sigaction program = program_action(*h);
  if (h->is_private) {
    if (private_user.handler(signal, info, context)) return;
  } else if (program.sa_handler == SIG_IGN && sent(info)) {
    return;  // ignored, as the program asked (a fault cannot be: it meets the default below)
  } else if (!has_handler(program) || !__atomic_load_n(&h->set_by_program, __ATOMIC_ACQUIRE)) {
    run_fatal_handlers(signal, info);
  }
  if (has_handler(program)) {
    if ((program.sa_flags & SA_RESETHAND) != 0) {
      const struct sigaction reset = default_action();
      const struct sigaction action = kernel_action(*h, reset);
      lock(*h);
      next_signal::sigaction(signal, &action, nullptr);
      record_program_action(*h, reset);
      unlock(*h);
    }
    // With the three arguments the kernel passes, SA_SIGINFO or not (sa_handler and
    // sa_sigaction share their storage).
    program.sa_sigaction(signal, info, context);
    return;
  }
  if (h->is_private) return;  // SIG_DFL (SIGURG's default is to ignore it) or SIG_IGN
  // A fatal signal meets its default action: a fault repeats when the handler returns,
  // a sent signal is sent again.
  const struct sigaction fallback = default_action();
  next_signal::sigaction(signal, &fallback, nullptr);
  if (sent(info)) raise(signal);
}

// Room for a handler's frames and an 8 KiB output buffer, with a margin.
size_t signal_stack_bytes() {
  const long wanted = sysconf(_SC_SIGSTKSZ);
  return std::max<size_t>(64 * 1024, wanted > 0 ? static_cast<size_t>(wanted) : 0);
}

void add_signal_stack(thread_record&) {
  if (!alternate_stacks_wanted) return;
  stack_t existing{};
  if (sigaltstack(nullptr, &existing) != 0 || (existing.ss_flags & SS_DISABLE) == 0) return;
  void* memory =
      mmap(nullptr, signal_stack_bytes(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED) return;  // a handler on a stack overflow is lost, nothing else
  stack_t ours{};
  ours.ss_sp = memory;
  ours.ss_size = signal_stack_bytes();
  if (sigaltstack(&ours, nullptr) != 0) {
    munmap(memory, signal_stack_bytes());
    return;
  }
  alternate_stack = memory;
}

void remove_signal_stack(thread_record&) {
  void* const stack = alternate_stack;
  if (stack == nullptr) return;
  alternate_stack = nullptr;
  stack_t current{};
  // The program put a stack of its own there: leave both as they are.
  if (sigaltstack(nullptr, &current) != 0 || current.ss_sp != stack) return;
  stack_t off{};
  off.ss_flags = SS_DISABLE;
  sigaltstack(&off, nullptr);
  munmap(stack, signal_stack_bytes());
}

// A program that replaced the runtime's crash handler behind sigaction()'s back (a
// raw rt_sigaction system call) gets no crash record on that signal: say so at exit.
void report_replaced_fatal_handlers() {
  if (fatal_handler_count == 0 || __atomic_load_n(&handling, __ATOMIC_ACQUIRE) != 0) return;
  for (int signal : fatal_signals) {
    struct sigaction current {};
    if (next_signal::sigaction(signal, nullptr, &current) != 0) continue;
    if ((current.sa_flags & SA_SIGINFO) != 0 && current.sa_sigaction == on_handled_signal) continue;
    const std::string line = std::string("perf: the program replaced the crash handler for ") +
                             fatal_signal_name(signal) +
                             " without sigaction(); the crash record was given up to its handler\n";
    (void)!write(STDERR_FILENO, line.data(), line.size());
  }
}

PERF_RUNTIME_ON_START(register_signal_stacks) {
  add_thread_hooks({.attach = add_signal_stack, .leave = remove_signal_stack});
  add_exit_output(report_replaced_fatal_handlers);
}

bool unhandled(int signal) {
  struct sigaction current {};
  return next_signal::sigaction(signal, nullptr, &current) == 0 && (current.sa_flags & SA_SIGINFO) == 0 &&
         current.sa_handler == SIG_DFL;
}

int unhandled_signal(int wanted) {
  if (wanted != 0 && unhandled(wanted)) return wanted;
  for (int signal : {SIGURG, SIGPROF})
    if (unhandled(signal)) return signal;
  for (int signal = SIGRTMAX; signal >= SIGRTMIN; --signal)
    if (unhandled(signal)) return signal;
  return 0;
}

handled_signal* free_slot() noexcept {
  for (handled_signal& h : handled)
    if (__atomic_load_n(&h.number, __ATOMIC_ACQUIRE) == 0) return &h;
  return nullptr;
}

}  // namespace

void add_fatal_signal_handler(void (*handler)(int signal, const siginfo_t* info) noexcept) {
  if (fatal_handler_count == std::size(fatal_handlers)) return;
  fatal_handlers[fatal_handler_count++] = handler;
  if (fatal_handler_count != 1) return;
  for (int signal : fatal_signals)
    if (handled_signal* h = free_slot()) take(*h, signal, false);
}

void use_alternate_signal_stacks() { alternate_stacks_wanted = true; }

int add_private_signal_handler(int wanted, const private_signal_user& user) {
  if (__atomic_load_n(&private_number, __ATOMIC_ACQUIRE) != 0) return 0;
  const int signal = unhandled_signal(wanted);
  handled_signal* const h = free_slot();
  if (signal == 0 || h == nullptr) return 0;
  private_user = user;
  if (!take(*h, signal, true)) return 0;
  __atomic_store_n(&private_number, signal, __ATOMIC_RELEASE);
  return signal;
}

bool private_signal_blocked() noexcept {
  const int signal = __atomic_load_n(&private_number, __ATOMIC_ACQUIRE);
  sigset_t current;
  return signal != 0 && next_signal::pthread_sigmask(SIG_BLOCK, nullptr, &current) == 0 &&
         sigismember(&current, signal) == 1;
}

bool handled_by_runtime(int signal) noexcept { return find(signal) != nullptr; }

int program_sigaction(int signal, const struct sigaction* action, struct sigaction* old) noexcept {
  handled_signal* const h = find(signal);
  if (h == nullptr) return next_signal::sigaction(signal, action, old);
  lock(*h);
  const struct sigaction previous = program_action(*h);
  if (action != nullptr) {
    if (h->is_private && has_handler(*action) && !__atomic_exchange_n(&private_taken_over, true, __ATOMIC_ACQ_REL))
      private_user.taken_over();
    const struct sigaction kernel = kernel_action(*h, *action);
    if (next_signal::sigaction(signal, &kernel, nullptr) != 0) {
      unlock(*h);
      return -1;
    }
    record_program_action(*h, *action);
    __atomic_store_n(&h->set_by_program, true, __ATOMIC_RELEASE);
  }
  unlock(*h);
  if (old != nullptr) *old = previous;
  return 0;
}

int change_signal_mask(int (*change)(int, const sigset_t*, sigset_t*) noexcept, int how, const sigset_t* set,
                       sigset_t* old, uintptr_t caller) noexcept {
  const int signal = __atomic_load_n(&private_number, __ATOMIC_ACQUIRE);
  // libunwind blocks every signal around its locks: the runtime's own unwinding (a
  // handler's, an allocation's, a thread's cache freed as it exits) pauses no sampling.
  if (signal == 0 || set == nullptr || __atomic_load_n(&private_taken_over, __ATOMIC_ACQUIRE) || in_unwinder(caller))
    return change(how, set, old);
  const bool held = sigismember(set, signal) == 1;
  const bool blocks = held && (how == SIG_BLOCK || how == SIG_SETMASK);
  const bool unblocks = held ? how == SIG_UNBLOCK : how == SIG_SETMASK;
  // Paused before the signal is blocked: a sample already queued is delivered on the
  // way out of the pausing system call, and none is queued after.
  if (blocks) private_user.blocked(true);
  const int result = change(how, set, old);
  if (result != 0 && blocks) private_user.blocked(private_signal_blocked());
  else if (result == 0 && unblocks) private_user.blocked(false);
  return result;
}

const sigset_t* without_private_signal(const sigset_t* set, sigset_t* room) noexcept {
  const int signal = __atomic_load_n(&private_number, __ATOMIC_ACQUIRE);
  if (signal == 0 || set == nullptr || __atomic_load_n(&private_taken_over, __ATOMIC_ACQUIRE) ||
      sigismember(set, signal) != 1)
    return set;
  *room = *set;
  sigdelset(room, signal);
  return room;
}

const char* fatal_signal_name(int signal) noexcept {
  switch (signal) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
  }
  return "a fatal signal";
}

}  // namespace perf::runtime
