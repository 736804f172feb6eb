#include "core/clock.hpp"

#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <numeric>

#include "report_format/schema.hpp"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace perf::detail {

uint64_t monotonic_now() noexcept {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1'000'000'000u + static_cast<uint64_t>(now.tv_nsec);
}

}  // namespace perf::detail

namespace perf::runtime {
namespace {

using detail::clock_source;

uint64_t raw_ns() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC_RAW, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1'000'000'000u + static_cast<uint64_t>(now.tv_nsec);
}

// A tick count and the CLOCK_MONOTONIC_RAW time taken together. Of a few tries,
// keeps the one whose two tick reads bracket the time read most tightly.
struct clock_pair {
  uint64_t ticks = 0;
  uint64_t ns = 0;
};

clock_pair read_pair(clock_source source) {
  clock_pair best;
  uint64_t best_gap = UINT64_MAX;
  for (int attempt = 0; attempt < 5; ++attempt) {
    const uint64_t before = detail::clock_now(source);
    const uint64_t ns = raw_ns();
    const uint64_t after = detail::clock_now(source);
    if (after - before < best_gap) {
      best_gap = after - before;
      best = {before + (after - before) / 2, ns};
    }
  }
  return best;
}

clock_pair calibration_start;

#if defined(__x86_64__)
// CPUID leaf 0x15: TSC = crystal * numerator / denominator, when the crystal is stated.
double cpuid_tsc_ghz() {
  unsigned max_leaf = __get_cpuid_max(0, nullptr);
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (max_leaf >= 0x15 && __get_cpuid(0x15, &eax, &ebx, &ecx, &edx) && eax && ebx && ecx)
    return static_cast<double>(ecx) * ebx / eax / 1e9;
  return 0;
}
#endif

// Some kernels publish the TSC rate they calibrated at boot.
double kernel_tsc_ghz() {
  std::ifstream in("/sys/devices/system/cpu/cpu0/tsc_freq_khz");
  double khz = 0;
  if (in >> khz && khz > 0) return khz / 1e6;
  return 0;
}

double calibrated_ticks_per_ns(clock_source source) {
  auto estimate = [&] {
    const clock_pair now = read_pair(source);
    return static_cast<double>(now.ticks - calibration_start.ticks) /
           static_cast<double>(now.ns - calibration_start.ns);
  };
  // Wait until at least 1 ms has passed since the start pair, so the first estimate means something.
  timespec pause{0, 1'000'000};
  while (raw_ns() - calibration_start.ns < 1'000'000) nanosleep(&pause, nullptr);
  double previous = estimate();
  for (long wait_ns = 1'000'000; wait_ns <= 256'000'000; wait_ns *= 2) {
    pause = {0, wait_ns};
    nanosleep(&pause, nullptr);
    const double next = estimate();
    if (std::fabs(next - previous) <= report_format::calibration_precision * next) return next;
    previous = next;
  }
  return previous;
}

}  // namespace

cpu_clock_features detect_cpu_clock_features() {
  cpu_clock_features features;
#if defined(__x86_64__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  features.tsc = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (edx & (1u << 4));
  if (__get_cpuid(0x80000001, &eax, &ebx, &ecx, &edx)) features.rdtscp = edx & (1u << 27);
  if (__get_cpuid(0x80000007, &eax, &ebx, &ecx, &edx)) features.invariant_tsc = edx & (1u << 8);
#elif defined(__aarch64__)
  features.cntvct = true;
#endif
  return features;
}

clock_choice choose_clock(std::string_view requested, const cpu_clock_features& features) {
  // Plain RDTSC also where RDTSCP is offered: RDTSCP waits for every earlier
  // instruction, which puts the probe's own bookkeeping on its critical path
  // (docs/performance.md, "Choosing the clock instruction").
  const bool tsc_usable = features.tsc && features.invariant_tsc;
  const clock_source best = tsc_usable        ? clock_source::rdtsc
                            : features.cntvct ? clock_source::cntvct
                                              : clock_source::monotonic;
  auto fallback = [&](std::string why) { return clock_choice{best, std::move(why)}; };
  const std::string value(requested);
  if (requested.empty() || requested == "auto") return {best, {}};
  if (requested == "monotonic") return {clock_source::monotonic, {}};
  if (requested == "tsc" || requested == "rdtscp" || requested == "tsc-fenced") {
    if (!features.tsc)
      return fallback("PERF_CLOCK=" + value + ": this processor has no TSC; using " + std::string(clock_name(best)));
    if (requested == "tsc-fenced") return {clock_source::rdtsc_fenced, {}};
    if (requested == "tsc") return {clock_source::rdtsc, {}};
    if (features.rdtscp) return {clock_source::rdtscp, {}};
    return fallback("PERF_CLOCK=rdtscp: the CPU does not offer RDTSCP; using " + std::string(clock_name(best)));
  }
  return fallback("PERF_CLOCK='" + value + "' is not one of auto, tsc, rdtscp, tsc-fenced, monotonic; using " +
                  std::string(clock_name(best)));
}

std::string_view clock_name(clock_source source) {
  switch (source) {
    case clock_source::rdtscp: return "rdtscp";
    case clock_source::rdtsc: return "rdtsc";
    case clock_source::rdtsc_fenced: return "lfence+rdtsc";
    case clock_source::cntvct: return "cntvct";
    case clock_source::monotonic: return "clock_gettime(CLOCK_MONOTONIC)";
  }
  return "unknown";
}

void start_calibration(clock_source source) { calibration_start = read_pair(source); }

// typical_step() of any reader: measure_resolution's reads the clock inline, so that
// no call around each read (std::function's, or a sanitizer's instrumentation of
// one) adds to what is measured.
template <class Read>
uint64_t typical_step_of(const Read& read) {
  constexpr size_t batches = 7;  // odd: their median is one of them
  constexpr size_t steps_per_batch = 63;
  constexpr long reads_per_batch = 4096;  // after which a batch that saw a step ends
  constexpr long reads_without_a_step = 1'000'000;
  uint64_t middles[batches];
  size_t measured = 0;
  uint64_t steps[steps_per_batch];
  for (size_t batch = 0; batch < batches; ++batch) {
    size_t count = 0;
    uint64_t previous = read();
    for (long reads = 1;
         count < steps_per_batch && (reads < reads_per_batch || (count == 0 && reads < reads_without_a_step));
         ++reads) {
      const uint64_t now = read();
      if (now > previous) steps[count++] = now - previous;
      previous = now;
    }
    if (count == 0) continue;
    std::sort(steps, steps + count);
    const size_t low = count / 4, high = count - count / 4;
    middles[measured++] = (std::accumulate(steps + low, steps + high, uint64_t{0}) + (high - low) / 2) / (high - low);
  }
  if (measured == 0) return 0;
  std::nth_element(middles, middles + measured / 2, middles + measured);
  return middles[measured / 2];
}

uint64_t typical_step(const std::function<uint64_t()>& read) { return typical_step_of(read); }

uint64_t measure_resolution(clock_source source) {
  const auto read = [source] { return detail::clock_now(source); };
  return std::min({typical_step_of(read), typical_step_of(read), typical_step_of(read)});
}

double quick_ticks_per_ns(clock_source source) noexcept {
  if (source == clock_source::monotonic) return 1.0;
  const uint64_t ticks = detail::clock_now(source);
  const uint64_t ns = raw_ns();
  if (ns <= calibration_start.ns || ticks <= calibration_start.ticks) return 1.0;
  return static_cast<double>(ticks - calibration_start.ticks) / static_cast<double>(ns - calibration_start.ns);
}

clock_rate measure_rate(clock_source source) {
  switch (source) {
    case clock_source::monotonic: return {1.0, "exact"};
    case clock_source::cntvct: {
#if defined(__aarch64__)
      uint64_t hz;
      __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(hz));
      if (hz != 0) return {static_cast<double>(hz) / 1e9, "cpu"};
#endif
      break;
    }
    default:
#if defined(__x86_64__)
      if (const double ghz = cpuid_tsc_ghz(); ghz > 0) return {ghz, "cpuid"};
#endif
      if (const double ghz = kernel_tsc_ghz(); ghz > 0) return {ghz, "kernel"};
      break;
  }
  return {calibrated_ticks_per_ns(source), "calibrated"};
}

}  // namespace perf::runtime
