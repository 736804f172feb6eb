// Choosing the clock and converting its ticks to time.
#ifndef PERF_RUNTIME_CORE_CLOCK_HPP
#define PERF_RUNTIME_CORE_CLOCK_HPP

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "perf/detail/clock.hpp"

namespace perf::runtime {

// What the processor offers for timing, as CPUID (or the architecture) reports it.
struct cpu_clock_features {
  bool tsc = false;            // x86-64 RDTSC
  bool rdtscp = false;         // x86-64 RDTSCP (hidden by some hypervisors)
  bool invariant_tsc = false;  // ticks at a constant rate, in every power state
  bool cntvct = false;         // aarch64 virtual counter
};

cpu_clock_features detect_cpu_clock_features();

struct clock_choice {
  detail::clock_source source;
  std::string warning;  // empty unless `requested` could not be honoured
};

// The clock for a PERF_CLOCK value ("" or "auto", "tsc", "rdtscp", "tsc-fenced",
// "monotonic") on a processor with `features`. "auto" takes plain RDTSC where the
// TSC is invariant (RDTSCP only on request), the aarch64 counter, or else the
// monotonic clock.
clock_choice choose_clock(std::string_view requested, const cpu_clock_features& features);

std::string_view clock_name(detail::clock_source source);

// Ticks of `source` per nanosecond and where that figure came from.
struct clock_rate {
  double ticks_per_ns;
  std::string origin;  // "exact", "cpu", "cpuid", "kernel" or "calibrated"
};

// Remembers a (ticks, CLOCK_MONOTONIC_RAW) pair of `source`; calibration measures
// from it, so the longer the program has run, the sooner the estimate settles.
void start_calibration(detail::clock_source source);

// The rate of `source`: stated by the CPU or the kernel where they state it, else
// calibrated against CLOCK_MONOTONIC_RAW from the start_calibration() pair until two
// consecutive estimates agree within 1e-4. Takes a few milliseconds at most when
// the program has run for a while; call it off the hot path.
clock_rate measure_rate(detail::clock_source source);

// The step between two successive values of `read` that differ, as a clock read
// over and over shows it: the median of 7 batches' middle means (the mean of the
// middle half of 63 such steps; a clock that has not moved is read up to a million
// times for a batch to see one). The middle half ignores the odd step that an
// interrupt lengthens or that a hypervisor's adjustment shortens to a tick, and the
// median of the batches a batch that load slowed throughout or that such
// adjustments filled. A mean rather than a median because a clock that moves in
// whole granules, read every 1.5 granules, steps 1, 2, 1, 2...: a median jumps
// between the two from one measurement to the next, the mean stays at 1.5. So the
// figure is the same from run to run on one machine. For a clock finer than its
// read, the time a read takes; for a coarser one, its tick. No duration the clock
// gives can be told apart below it. 0 if it never moved.
uint64_t typical_step(const std::function<uint64_t()>& read);

// The least of three typical_step()s of `source`, in its ticks: for a clock finer
// than its read, load on the machine only ever lengthens a read, so the least is the
// one load touched least. Some tens of microseconds at start-up (a few milliseconds
// at most for a clock coarser than its read).
uint64_t measure_resolution(detail::clock_source source);

// One estimate of the rate of `source` from the start_calibration() pair to now,
// without waiting: async-signal-safe, for the crash dump; rough in a young program.
double quick_ticks_per_ns(detail::clock_source source) noexcept;

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_CLOCK_HPP
