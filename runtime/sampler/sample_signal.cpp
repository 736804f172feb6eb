// The sample handler, on the signal core/signals chooses, and what the sampler does
// when the program blocks that signal or takes it over. Everything the handler does is
// async-signal-safe: it unwinds the interrupted stack (core/stack_unwind.hpp), reads the thread's
// innermost measured function enclosing the interrupted code, and adds the stack to a
// lock-free table, and with its time to the ring of recent samples.
#include <errno.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/settings.hpp"
#include "core/signals.hpp"
#include "perf/detail/thread_state.hpp"
#include "sampler/internal/sampling.hpp"
#include "sampler/recent_samples.hpp"

namespace perf::runtime {
namespace {

sample_table* target_table = nullptr;  // set once, before the handler is installed
unsigned walk_depth = 0;
int chosen_signal = 0;
detail::clock_source sample_time_clock;  // the runtime's clock, set once before the handler is installed
bool taken_over = false;                 // atomic: the program installed its own handler on chosen_signal
PERF_DETAIL_TLS uintptr_t thread_stack_low;
PERF_DETAIL_TLS uintptr_t thread_stack_high;
PERF_DETAIL_TLS bool thread_stack_sought;  // its bounds were looked for in /proc/self/maps
PERF_DETAIL_TLS bool thread_paused;
PERF_DETAIL_TLS uint32_t thread_id;  // 0: not known yet

bool on_sample(int, siginfo_t* info, void* ucontext) noexcept {
  // Only our sources' signals: a timer's (si_code SI_TIMER, with our tag in its
  // value) or a perf_event descriptor's (POLL_IN). One sent by kill(), tgkill() or
  // sigqueue() (si_code 0 or below), or by a timer of the program's, is the
  // program's.
  if (info == nullptr) return false;
  const bool from_timer = info->si_code == SI_TIMER && is_sample_timer_value(info->si_value.sival_ptr);
  if (!from_timer && info->si_code != POLL_IN) return false;
  if (thread_paused || __atomic_load_n(&taken_over, __ATOMIC_ACQUIRE)) return true;
  const int saved_errno = errno;
  if (from_timer) {
    // The timers carry their thread's id; an overrun counts the samples the kernel
    // merged while the signal waited (the thread not running).
    record_sample(ucontext, sample_timer_thread(info->si_value.sival_ptr),
                  1 + static_cast<uint64_t>(info->si_overrun > 0 ? info->si_overrun : 0));
  } else {
    // An event's signal is one period: overflows while it is pending merge into it
    // (a classic signal is queued once).
    if (thread_id == 0) thread_id = static_cast<uint32_t>(syscall(SYS_gettid));
    record_sample(ucontext, thread_id, 1);
  }
  errno = saved_errno;
  return true;
}

// The program installed its own handler on the signal: no sample may reach it. The
// sources go at once (timers deleted, events closed); a sample already queued meets
// on_sample, which drops it.
void give_signal_to_program() noexcept {
  __atomic_store_n(&taken_over, true, __ATOMIC_RELEASE);
  disarm_all_threads();
}

}  // namespace

void record_sample(const void* ucontext, uint32_t tid, uint64_t weight) noexcept {
  // A thread armed from another (found in /proc) never read its stack's bounds: the
  // mapping holding its stack pointer at its first sample is its stack.
  if (thread_stack_high == 0 && !thread_stack_sought) {
    thread_stack_sought = true;
    set_thread_stack(stack_mapping_holding(read_interrupted(ucontext).sp));
  }
  uintptr_t frames[max_sample_depth];
  const stack_bounds bounds{thread_stack_low, thread_stack_high};
  const unsigned depth = unwind_interrupted(ucontext, bounds, frames, walk_depth);
  unsigned site = 0;
  if (const detail::thread_state* thread = detail::current_thread)
    site = detail::enclosing_site(*thread, read_interrupted(ucontext).sp, bounds.low, bounds.high);
  target_table->add(tid, site, frames, depth, weight);
  keep_recent_sample(detail::clock_now(sample_time_clock), tid, frames, depth);
}

int install_sample_handler(sample_table* table, unsigned depth, int wanted_signal) {
  target_table = table;
  walk_depth = depth;
  sample_time_clock = current_settings().clock;
  const private_signal_user sampler{on_sample, calling_thread_blocks_sample_signal, give_signal_to_program};
  const int signal = add_private_signal_handler(wanted_signal, sampler);
  __atomic_store_n(&chosen_signal, signal, __ATOMIC_RELEASE);
  return signal;
}

int sample_signal() noexcept { return __atomic_load_n(&chosen_signal, __ATOMIC_ACQUIRE); }

bool sample_signal_taken_over() noexcept { return __atomic_load_n(&taken_over, __ATOMIC_ACQUIRE); }

sampling_pause::sampling_pause() noexcept : was_paused_(thread_paused) { thread_paused = true; }
sampling_pause::~sampling_pause() { thread_paused = was_paused_; }

void set_thread_id(uint32_t tid) noexcept { thread_id = tid; }

uint32_t known_thread_id() noexcept { return thread_id; }

void set_thread_stack(const stack_bounds& bounds) noexcept {
  thread_stack_low = bounds.low;
  thread_stack_high = bounds.high;
}

}  // namespace perf::runtime
