// Between the files of the sampler only (no other component includes it): the
// signal handler and its timer values, the timers of every thread and their
// arming, the thread start hook, and the calling thread's stack and id.
#ifndef PERF_RUNTIME_SAMPLER_INTERNAL_SAMPLING_HPP
#define PERF_RUNTIME_SAMPLER_INTERNAL_SAMPLING_HPP

#include <sys/types.h>

#include <cstdint>

#include "core/stack_unwind.hpp"
#include "sampler/sample_config.hpp"
#include "sampler/sample_table.hpp"
#include "sampler/sampler.hpp"

namespace perf::runtime {

// Picks a signal nobody handles (`wanted_signal` if it is free and not 0), installs
// the handler on it, and has the handler count samples of at most `depth` frames into
// `table` (unwind_interrupted: prepare_unwinder first). Returns the signal, or 0.
int install_sample_handler(sample_table* table, unsigned depth, int wanted_signal);

// The value every sample timer carries (sigev_value.sival_ptr): a tag in the high
// half, so that a program's own timer on the same signal is told apart, and the
// thread's id in the low half.
constexpr uint64_t sample_timer_tag = uint64_t{0x70657266} << 32;  // "perf"
inline void* sample_timer_value(pid_t tid) noexcept {
  return reinterpret_cast<void*>(sample_timer_tag | static_cast<uint32_t>(tid));
}
inline bool is_sample_timer_value(const void* value) noexcept {
  return (reinterpret_cast<uintptr_t>(value) & ~uint64_t{0xffffffff}) == sample_timer_tag;
}
inline uint32_t sample_timer_thread(const void* value) noexcept {
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(value));
}

// The calling thread is about to block the sample signal (true), or has unblocked it
// (false): its source stops (the timer is set to zero, the event disabled), so that
// no sample is ever left pending on a thread that blocks the signal (where sigwait()
// would meet it), and restarts. Idempotent; async-signal-safe (it gives up, leaving
// the thread as it was, when the sources' lock stays taken: by a handler's own
// thread in arm or disarm).
void calling_thread_blocks_sample_signal(bool blocked) noexcept;

// The calling thread's stack, for the handler's checks of its frames. Set when the
// thread is armed by the thread start hook or by start_sampling.
void set_thread_stack(const stack_bounds& bounds) noexcept;

// The calling thread's id, for the handler to file a perf_event sample under (a
// timer's signal carries it). Set when the thread arms itself, and in the child of
// fork; a thread armed from another (found in /proc) has the handler ask the kernel
// once.
void set_thread_id(uint32_t tid) noexcept;
// The calling thread's id as set_thread_id (or the handler) left it; 0 while unknown.
// Async-signal-safe.
uint32_t known_thread_id() noexcept;

// Finds the real pthread_create behind the runtime's (thread_start_hook.cpp) before
// the first thread is started through the hook.
void install_thread_start_hook();

// Whether new threads are to be armed (the thread start hook asks).
bool sampling_new_threads() noexcept;

// Arms a source for the calling thread and disarms it when the thread exits.
void arm_calling_thread() noexcept;

// Arms sources for the threads listed in /proc/self/task that have none yet.
void arm_existing_threads() noexcept;

// The signal and clock of every source (thread_timers.cpp); once, before arming.
void configure_sources(int signal, sample_clock clock) noexcept;
// From now on, threads armed get a source of `hz`: `wanted` where the kernel allows
// it (choose_sample_source), else a timer. The hook and arm_* arm them.
void arm_new_threads(unsigned hz, sample_source wanted) noexcept;
// Disarms every source, and stops arming threads until arm_new_threads.
void disarm_all_threads() noexcept;

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_SAMPLER_INTERNAL_SAMPLING_HPP
