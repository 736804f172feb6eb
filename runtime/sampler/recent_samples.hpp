// The sampler's newest samples with their times, for the tick log's captures (read
// through core/timed_samples.hpp): the sample table keeps only counts per distinct
// stack, no times.
//
// One ring of recent_sample_slots samples shared by every thread, each slot a sample's
// time, thread and first recent_sample_depth frames (280 bytes; 1.1 MiB in all,
// resident once that many samples were taken). At 1 kHz on 4 busy threads it holds
// the last second, where a capture's window is 10 ms. A thread that is sampled often
// pushes the others' samples out as soon as its own: the ring is by time, not thread.
#ifndef PERF_RUNTIME_SAMPLER_RECENT_SAMPLES_HPP
#define PERF_RUNTIME_SAMPLER_RECENT_SAMPLES_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/timed_samples.hpp"

namespace perf::runtime {

constexpr size_t recent_sample_slots = 4096;
constexpr unsigned recent_sample_depth = 32;

// Keeps the sample of thread `tid` taken at clock value `time` with `frames[0..depth)`
// (the interrupted instruction, then return addresses; cut to recent_sample_depth),
// over the oldest one. Async-signal-safe and lock-free: a slot is claimed by an atomic
// increment and published by its sequence number after its fields (a sequence lock),
// so any number of handlers may keep samples at once.
void keep_recent_sample(uint64_t time, uint32_t tid, const uintptr_t* frames, unsigned depth) noexcept;

// The samples kept from `from` to `to` (clock values, both included), oldest first,
// their frames symbolized once the symbolizer is ready (symbolizer_ready(),
// profile.hpp), else named by address ("0x55d0c1a2b3c4"), so that a read never waits
// for the symbolizer's start (hundreds of milliseconds); a slot being rewritten while
// it is read is left out. core/timed_samples.hpp's `read`. Any thread; allocates.
std::vector<timed_sample> recent_samples_between(uint64_t from, uint64_t to);

// Starts a thread of the runtime's (`perf-symbols`) that readies the symbolizer and
// ends. core/timed_samples.hpp's `prepare`.
void prepare_symbols_in_background();

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_SAMPLER_RECENT_SAMPLES_HPP
