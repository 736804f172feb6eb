#include "core/signals.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <iterator>

#include "core/startup.hpp"
#include "core/threads.hpp"

namespace perf::runtime {
namespace {

constexpr int fatal_signals[] = {SIGSEGV, SIGABRT, SIGBUS, SIGFPE};
struct sigaction previous_actions[std::size(fatal_signals)];

void (*fatal_handlers[4])(int) noexcept = {};
unsigned fatal_handler_count = 0;
int handling = 0;  // atomic: the first fatal signal runs the handlers, later ones do not

bool alternate_stacks_wanted = false;
PERF_DETAIL_TLS void* alternate_stack = nullptr;  // the calling thread's, when it is ours

void on_fatal_signal(int signal, siginfo_t* info, void*) {
  if (__atomic_exchange_n(&handling, 1, __ATOMIC_ACQ_REL) == 0)
    for (unsigned i = 0; i < fatal_handler_count; ++i) fatal_handlers[i](signal);
  for (size_t i = 0; i < std::size(fatal_signals); ++i)
    if (fatal_signals[i] == signal) sigaction(signal, &previous_actions[i], nullptr);
  // A fault repeats when the handler returns, now meeting the previous action; a
  // signal that was sent (raise, abort, kill) must be sent again.
  if (info == nullptr || info->si_code <= 0) raise(signal);
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

void remove_signal_stack(thread_record&, size_t) {
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

PERF_RUNTIME_ON_START(register_signal_stacks) {
  add_thread_hooks({.attach = add_signal_stack, .exit = remove_signal_stack});
}

}  // namespace

void add_fatal_signal_handler(void (*handler)(int signal) noexcept) {
  if (fatal_handler_count == std::size(fatal_handlers)) return;
  fatal_handlers[fatal_handler_count++] = handler;
  if (fatal_handler_count != 1) return;
  struct sigaction action {};
  action.sa_sigaction = on_fatal_signal;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (size_t i = 0; i < std::size(fatal_signals); ++i) sigaction(fatal_signals[i], &action, &previous_actions[i]);
}

void use_alternate_signal_stacks() { alternate_stacks_wanted = true; }

namespace {

bool unhandled(int signal) {
  struct sigaction current {};
  return sigaction(signal, nullptr, &current) == 0 && (current.sa_flags & SA_SIGINFO) == 0 &&
         current.sa_handler == SIG_DFL;
}

int unhandled_signal() {
  for (int signal : {SIGURG, SIGPROF})
    if (unhandled(signal)) return signal;
  for (int signal = SIGRTMAX; signal >= SIGRTMIN; --signal)
    if (unhandled(signal)) return signal;
  return 0;
}

}  // namespace

int add_private_signal_handler(void (*handler)(int signal, siginfo_t* info, void* context)) {
  const int signal = unhandled_signal();
  if (signal == 0) return 0;
  struct sigaction action {};
  action.sa_sigaction = handler;
  action.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  return sigaction(signal, &action, nullptr) == 0 ? signal : 0;
}

}  // namespace perf::runtime
