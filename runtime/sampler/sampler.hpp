// The sampler's internals shared by its files: starting and stopping, the timers of
// every thread, the signal and its handler, and the table the handler fills.
#ifndef PERF_RUNTIME_SAMPLER_SAMPLER_HPP
#define PERF_RUNTIME_SAMPLER_SAMPLER_HPP

#include <sys/types.h>

#include <string>

#include "frame_walk.hpp"
#include "sample_config.hpp"
#include "sample_table.hpp"

namespace perf::runtime {

// PERF_SAMPLE_* and PERF_PROFILE, parsed on first use; warnings go to stderr once.
const sample_config& current_sample_config();

// Starts sampling every thread at `config.hz` of its CPU (or wall) time: installs
// the handler, hooks thread creation, then arms a source for every thread that
// exists. Returns an empty string, or why sampling stays off. Call once, before
// the threads it should see exit; not async-signal-safe.
std::string start_sampling(const sample_config& config);

// Disarms every source and stops arming new threads; the samples stay. Idempotent.
void stop_sampling() noexcept;

// Samples every thread again, at `hz` from now on, with `source` where the kernel
// allows it (the benchmarks compare rates and sources in one run; the profile's
// period stays the one sampling started at). Only after start_sampling succeeded.
void resume_sampling(unsigned hz, sample_source source) noexcept;

// The samples taken so far; null when sampling never started.
sample_table* sampled_stacks() noexcept;

// The rate sampling was started at; 0 when it never was.
unsigned sampling_hz() noexcept;

// What sends the threads armed now their signal: perf_event where the kernel allowed
// it, else timer (a thread refused its event gets a timer on its own). Lock-free:
// callable under any runtime lock.
sample_source sampling_source() noexcept;

// The signal the sampler took (sample_signal.cpp); 0 before it starts.
int sample_signal() noexcept;

// Whether the program installed its own handler on sample_signal(), which stopped
// sampling for good.
bool sample_signal_taken_over() noexcept;

// Why sampling stopped before the end, as the report says it; empty while it runs.
std::string why_sampling_stopped();

// While one lives, the calling thread's samples are not counted: the runtime's own
// work at exit or on demand (symbolizing, writing files) is not the program's.
class sampling_pause {
 public:
  sampling_pause() noexcept;
  ~sampling_pause();
  sampling_pause(const sampling_pause&) = delete;
  sampling_pause& operator=(const sampling_pause&) = delete;

 private:
  bool was_paused_;
};

// --- between the files of the sampler ---

// Picks a signal nobody handles (`wanted_signal` if it is free and not 0), installs
// the handler on it, and has the handler count samples of at most `depth` frames into
// `table`, recovering lost frame chains with `code` (walk_frame_chain). Returns the
// signal, or 0.
int install_sample_handler(sample_table* table, unsigned depth, const code_ranges* code, int wanted_signal);

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

// The calling thread's stack, for the handler's fault-safe walk. Set when the
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

// What the handler does once it knows the sample is ours: walks the stack of
// `ucontext` and counts it `weight` times (one interrupt) for thread `tid`.
// Async-signal-safe.
void record_sample(const void* ucontext, uint32_t tid, uint64_t weight) noexcept;

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_SAMPLER_SAMPLER_HPP
