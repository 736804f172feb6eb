// The sampler's face: its configuration, starting and stopping, the table of samples
// taken, the signal it took, recording one sample, and pausing the calling thread's samples. What its own
// files share (the timers of every thread, the handler) is internal/sampling.hpp.
#ifndef PERF_RUNTIME_SAMPLER_SAMPLER_HPP
#define PERF_RUNTIME_SAMPLER_SAMPLER_HPP

#include <cstdint>
#include <string>

#include "sampler/sample_config.hpp"
#include "sampler/sample_table.hpp"

namespace perf::runtime {

// PERF_SAMPLE_* and PERF_PROFILE, parsed on first use; warnings go to stderr once.
const sample_config& current_sample_config();

// Starts sampling every thread at `config.hz` of its CPU (or wall) time: installs
// the handler, hooks thread creation, then arms a source for every thread that
// exists. Returns an empty string, or why sampling stays off. Call once, before
// the threads it should see exit; not async-signal-safe.
[[nodiscard]] std::string start_sampling(const sample_config& config);

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

// What the handler does once it knows the sample is ours: walks the stack of
// `ucontext` and counts it `weight` times (one interrupt) for thread `tid`, into the
// table start_sampling gave the handler (call it only after a successful start; a
// handler of the bench's own measures the sampler's work per sample through it).
// Async-signal-safe.
void record_sample(const void* ucontext, uint32_t tid, uint64_t weight) noexcept;

// Whether the program installed its own handler on sample_signal(), which stopped
// sampling for good.
bool sample_signal_taken_over() noexcept;

// Why sampling stopped before the end, as the report says it; empty while it runs.
std::string why_sampling_stopped();

// The threads the kernel refused every source (a seccomp filter refusing
// perf_event_open and timer_create, out of timers), those that exited meanwhile left
// out, and why the first was refused, as words ("the kernel refused perf_event_open
// (Operation not permitted) and timer_create (Operation not permitted)"); {0, ""} when
// every thread got one. The first refusal is also a warning on stderr. Lock-free.
struct unsampled_threads {
  uint64_t threads = 0;
  std::string why;
};
unsampled_threads threads_not_sampled();

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

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_SAMPLER_SAMPLER_HPP
