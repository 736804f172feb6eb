// The sample handler, on the signal core/signals chooses. Everything it does is
// async-signal-safe: it walks the interrupted stack by frame pointers (looking for the
// chain on the stack where the interrupted code had lost it), reads the
// thread's innermost measured function, and adds the stack to a lock-free table.
#include <errno.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/signals.hpp"
#include "perf/detail/thread_state.hpp"
#include "sampler.hpp"

namespace perf::runtime {
namespace {

sample_table* target_table = nullptr;  // set once, before the handler is installed
unsigned walk_depth = 0;
const code_ranges* known_code = nullptr;
int chosen_signal = 0;
PERF_DETAIL_TLS uintptr_t thread_stack_low;
PERF_DETAIL_TLS uintptr_t thread_stack_high;
PERF_DETAIL_TLS bool thread_paused;
PERF_DETAIL_TLS uint32_t thread_id;  // 0: not known yet

void on_sample(int, siginfo_t* info, void* ucontext) {
  // Only our sources' signals (si_code SI_TIMER from a timer, POLL_IN from a
  // perf_event's descriptor): one sent by kill(), tgkill() or sigqueue() has a
  // si_code of 0 or below and is somebody else's.
  if (info == nullptr || (info->si_code != SI_TIMER && info->si_code != POLL_IN) || thread_paused) return;
  const int saved_errno = errno;
  if (info->si_code == SI_TIMER) {
    // The timers carry their thread's id; an overrun counts the samples the kernel
    // merged while the signal waited (blocked, or the thread not running).
    record_sample(ucontext, static_cast<uint32_t>(info->si_value.sival_int),
                  1 + static_cast<uint64_t>(info->si_overrun > 0 ? info->si_overrun : 0));
  } else {
    // An event's signal is one period: overflows while it is pending merge into it
    // (a classic signal is queued once).
    if (thread_id == 0) thread_id = static_cast<uint32_t>(syscall(SYS_gettid));
    record_sample(ucontext, thread_id, 1);
  }
  errno = saved_errno;
}

}  // namespace

void record_sample(const void* ucontext, uint32_t tid, uint64_t weight) noexcept {
  uintptr_t frames[max_sample_depth];
  const stack_bounds bounds{thread_stack_low, thread_stack_high};
  const unsigned depth = walk_interrupted_stack(ucontext, bounds, known_code, frames, walk_depth);
  unsigned site = 0;
  if (const detail::thread_state* thread = detail::current_thread)
    if (const detail::frame* innermost = thread->current) site = innermost->site;
  target_table->add(tid, site, frames, depth, weight);
}

int install_sample_handler(sample_table* table, unsigned depth, const code_ranges* code) {
  target_table = table;
  walk_depth = depth;
  known_code = code;
  const int signal = add_private_signal_handler(on_sample);
  __atomic_store_n(&chosen_signal, signal, __ATOMIC_RELEASE);
  return signal;
}

int sample_signal() noexcept { return __atomic_load_n(&chosen_signal, __ATOMIC_ACQUIRE); }

sampling_pause::sampling_pause() noexcept : was_paused_(thread_paused) { thread_paused = true; }
sampling_pause::~sampling_pause() { thread_paused = was_paused_; }

void set_thread_id(uint32_t tid) noexcept { thread_id = tid; }

void set_thread_stack(const stack_bounds& bounds) noexcept {
  thread_stack_low = bounds.low;
  thread_stack_high = bounds.high;
}

}  // namespace perf::runtime
