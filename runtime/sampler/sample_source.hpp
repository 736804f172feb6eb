// What sends a thread its sample signal: a perf_event software event on the thread's
// task clock, or a POSIX timer on its CPU-time (or the wall) clock. One source per
// thread, armed and disarmed by thread_timers.cpp.
#ifndef PERF_RUNTIME_SAMPLER_SAMPLE_SOURCE_HPP
#define PERF_RUNTIME_SAMPLER_SAMPLE_SOURCE_HPP

#include <sys/types.h>
#include <time.h>

#include "core/owned_descriptor.hpp"
#include "sampler/sample_config.hpp"

namespace perf::runtime {

// The signal every source sends, and how often.
struct source_settings {
  int signal = 0;
  sample_clock clock = sample_clock::cpu;
  long period_ns = 0;
};

// One thread's armed source.
struct armed_source {
  sample_source kind = sample_source::timer;
  owned_descriptor event;   // perf_event: touched and closed only while its number is still the event
  timer_t timer = nullptr;  // timer
};

// The source threads get: the perf_event task clock when `preferred` is it, the
// clock is the CPU's, the signal is not a real-time one (an event's signals queue,
// one per period, while a thread blocks a real-time signal; a classic one merges)
// and the kernel lets this process open the event on itself (not refused by
// seccomp or perf_event_paranoid 3); else the timers, with `event_refused` set to the
// errno of the kernel's refusal where the event was tried (else 0). Not
// async-signal-safe.
sample_source choose_sample_source(sample_source preferred, const source_settings& settings,
                                   int* event_refused) noexcept;

// Starts `kind` sending `settings.signal` to thread `tid` of this process, every
// period of its time; `paused`: armed stopped (the thread blocks the signal), for
// pause_source to start. perf_event: the signal's si_code is POLL_IN; timer:
// SI_TIMER, with sample_timer_value(tid) in si_value.sival_ptr. False, with nothing
// left open and errno saying why, when the kernel refuses (the thread exited, out of
// file descriptors or timers, a seccomp filter).
bool arm_source(sample_source kind, pid_t tid, const source_settings& settings, bool paused,
                armed_source* out) noexcept;

// Stops (`paused`) or restarts `source`: the event is disabled or enabled, the timer
// set to zero or to the period; no signal is sent while it is stopped. False if the
// kernel refused, or the event's descriptor is no longer the event (the program
// closed it). Async-signal-safe: the program's pthread_sigmask calls it, maybe from a
// handler.
bool pause_source(const armed_source& source, bool paused, const source_settings& settings) noexcept;

// Stops the source and releases it: closes the event (the last reference to it
// frees it) or deletes the timer. In the child of fork it releases the copy the
// child inherited (the parent's threads' events) without touching the parent's.
void release_source(const armed_source& source) noexcept;

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_SAMPLER_SAMPLE_SOURCE_HPP
