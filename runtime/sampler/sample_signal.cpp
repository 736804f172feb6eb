// The sample signal and its handler. Everything the handler does is
// async-signal-safe: it walks the interrupted stack by frame pointers, reads the
// thread's innermost measured function, and adds the stack to a lock-free table.
#include <errno.h>
#include <signal.h>

#include "perf/detail/thread_state.hpp"
#include "sampler.hpp"

namespace perf::runtime {
namespace {

sample_table* target_table = nullptr;  // set once, before the handler is installed
unsigned walk_depth = 0;
int chosen_signal = 0;
PERF_DETAIL_TLS uintptr_t thread_stack_low;
PERF_DETAIL_TLS uintptr_t thread_stack_high;
PERF_DETAIL_TLS bool thread_paused;

void on_sample(int, siginfo_t* info, void* ucontext) {
  // Only our timers' signals: one sent by kill() or raise() is somebody else's.
  if (info == nullptr || info->si_code != SI_TIMER || thread_paused) return;
  const int saved_errno = errno;
  // The timers carry their thread's id; an overrun counts the samples the kernel
  // merged while the signal waited (blocked, or the thread not running).
  record_sample(ucontext, static_cast<uint32_t>(info->si_value.sival_int),
                1 + static_cast<uint64_t>(info->si_overrun > 0 ? info->si_overrun : 0));
  errno = saved_errno;
}

// A signal whose default action is to be ignored comes first: one still in flight
// when the program calls exec() is then dropped instead of killing the new program.
// SIGPROF next (the profilers' signal), then the real-time signals from the top.
bool unused(int signal) {
  struct sigaction current {};
  return sigaction(signal, nullptr, &current) == 0 && (current.sa_flags & SA_SIGINFO) == 0 &&
         current.sa_handler == SIG_DFL;
}

int choose_signal() {
  if (unused(SIGURG)) return SIGURG;
  if (unused(SIGPROF)) return SIGPROF;
  for (int signal = SIGRTMAX; signal >= SIGRTMIN; --signal)
    if (unused(signal)) return signal;
  return 0;
}

}  // namespace

void record_sample(const void* ucontext, uint32_t tid, uint64_t weight) noexcept {
  uintptr_t frames[max_sample_depth];
  const stack_bounds bounds{thread_stack_low, thread_stack_high};
  const unsigned depth = walk_interrupted_stack(ucontext, bounds, frames, walk_depth);
  unsigned site = 0;
  if (const detail::thread_state* thread = detail::current_thread)
    if (const detail::frame* innermost = thread->current) site = innermost->site;
  target_table->add(tid, site, frames, depth, weight);
}

int install_sample_handler(sample_table* table, unsigned depth) {
  const int signal = choose_signal();
  if (signal == 0) return 0;
  target_table = table;
  walk_depth = depth;
  struct sigaction action {};
  action.sa_sigaction = on_sample;
  // SA_RESTART: a read() or write() the signal interrupts goes on. SA_ONSTACK: a
  // thread near the end of its stack samples on its signal stack, where it has one.
  action.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  if (sigaction(signal, &action, nullptr) != 0) return 0;
  __atomic_store_n(&chosen_signal, signal, __ATOMIC_RELEASE);
  return signal;
}

int sample_signal() noexcept { return __atomic_load_n(&chosen_signal, __ATOMIC_ACQUIRE); }

sampling_pause::sampling_pause() noexcept : was_paused_(thread_paused) { thread_paused = true; }
sampling_pause::~sampling_pause() { thread_paused = was_paused_; }

void set_thread_stack(const stack_bounds& bounds) noexcept {
  thread_stack_low = bounds.low;
  thread_stack_high = bounds.high;
}

}  // namespace perf::runtime
