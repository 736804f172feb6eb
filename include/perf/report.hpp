// Reading the statistics while the program runs, and writing reports.
//
// The runtime writes a report by itself when the program exits (see PERF_REPORT in
// docs/usage.md); these functions are for programs that want one earlier, or
// periodically: a long-running service can dump its statistics without stopping.
#ifndef PERF_REPORT_HPP
#define PERF_REPORT_HPP

#include <stdint.h>

#include <string>
#include <utility>
#include <vector>

#include "perf/detail/compiler.hpp"
#include "perf/sampler.hpp"

namespace perf {

// The upper bounds, in seconds, of the latency histogram buckets every process
// reports (function_stats::latency_buckets, the live endpoint's /metrics): fixed, so
// that the histograms of many processes add up. 100 ns to 10 s, 1 and 3 per decade.
static constexpr double latency_bucket_bounds_seconds[] = {1e-7, 3e-7, 1e-6, 3e-6, 1e-5, 3e-5, 1e-4, 3e-4, 1e-3,
                                                           3e-3, 1e-2, 3e-2, 0.1,  0.3,  1,    3,    10};

// One measured function, merged over threads and over every site that shares its
// name and source location (a template's instantiations, say). Times are in
// nanoseconds. `total_ns` counts recursive activations once, also when they recurse
// through another of the row's sites (work<A> calling work<B>), so it never exceeds
// the time spent in the row; the distribution (mean, min, max, stddev, percentiles)
// describes every activation.
//
// Every call is counted; a probe-dominated leaf may be timed on a random sample of
// its calls only (PERF_TIMING=adaptive, docs/usage.md): then `timed_calls` is below
// `calls`, total, self and mean are estimated from the timed calls for all of them
// (the mean with its 95% interval, mean_ns_low to mean_ns_high; where every call was
// timed, both are the mean), and the other figures describe the timed calls.
struct function_stats {
  std::string name;
  std::string file;
  unsigned line = 0;
  uint64_t calls = 0;
  uint64_t timed_calls = 0;
  double total_ns = 0;
  double self_ns = 0;  // total minus the time spent in measured callees
  double mean_ns = 0;
  double mean_ns_low = 0;
  double mean_ns_high = 0;
  double min_ns = 0;
  double max_ns = 0;
  double stddev_ns = 0;
  double p50_ns = 0;
  double p90_ns = 0;
  double p99_ns = 0;
  double p999_ns = 0;
  // Heap allocations per call and their bytes, callees included (perf/alloc.hpp;
  // 0 when allocation counting is inactive).
  double alloc_count = 0;
  double alloc_bytes = 0;
  // What merging reports exactly needs (perf-report merge): the timed calls' mean
  // and sum of squared deviations from it (with `timed_calls`, the moments), the
  // allocation totals, and the histogram's nonzero buckets of clock ticks
  // (bucket, count), ascending; bucket bounds in perf/detail/histogram_index.hpp.
  double timed_mean_ns = 0;
  double m2_ns2 = 0;
  uint64_t alloc_total_count = 0;
  uint64_t alloc_total_bytes = 0;
  std::vector<std::pair<unsigned, uint64_t>> histogram;
  // The median is below probe_dominated_factor probe costs (clock_stats::probe_ns):
  // measuring the function costs a third or more of its time, and its figures are
  // mostly the probe's rounding and noise.
  bool probe_dominated = false;
  // [i]: activations that took at most latency_bucket_bounds_seconds[i] (cumulative;
  // from the histogram, so within 0.78% of each bound).
  std::vector<uint64_t> latency_buckets;
};

// A function is probe-dominated when its median, without the probe, is below this
// many probe costs.
constexpr double probe_dominated_factor = 2;

// A thread, or a row of exited threads: the first 64 to exit have a row each (tid
// and name), the later ones a row per name (tid 0; PERF_THREADS in docs/usage.md),
// so that the rows stay bounded however many threads come and go. Figures are the
// sums over the row's threads.
struct thread_stats {
  long tid = 0;
  std::string name;
  uint64_t calls = 0;  // measured calls made on this thread
  bool exited = false;
  uint64_t tick_events = 0;   // tick-log events its ring holds
  uint64_t tick_dropped = 0;  // older events the ring overwrote
  uint64_t threads = 1;       // threads in the row: above 1 only in a row of exited threads
};

struct ticklog_stats {
  bool enabled = false;      // PERF_TICKS is not off
  uint64_t events = 0;       // held in the rings, all threads
  uint64_t dropped = 0;      // overwritten, all threads
  uint64_t ring_events = 0;  // capacity of each thread's ring
};

struct clock_stats {
  std::string source;     // "rdtscp", "rdtsc", "lfence+rdtsc", "cntvct" or "clock_gettime(CLOCK_MONOTONIC)"
  double ghz = 0;         // ticks per nanosecond
  std::string frequency;  // where `ghz` came from: "exact", "cpu", "cpuid", "kernel" or "calibrated"
  // The smallest step the clock took between two successive reads at start-up: no
  // duration is finer than that. 0 when unknown.
  double resolution_ns = 0;
  // The probe's cost, measured at start-up: how much longer a caller takes per
  // measured call it makes, and how much of that lies inside the measured
  // function's own duration.
  double probe_ns = 0;
  double probe_inside_ns = 0;
  // The highest of the start-up measurements of probe_ns, the lowest of which is
  // kept: how much the probe's cost moved while the runtime measured it.
  double probe_high_ns = 0;
  // Whether that cost is subtracted from every duration (PERF_COMPENSATE is not off).
  bool compensated = false;
};

// What measuring cost the run: every timed call times clock_stats::probe_ns, every
// untimed one (adaptive timing) times untimed_ns, and the part of it spent on
// probe-dominated functions.
struct probe_overhead {
  uint64_t calls = 0;
  double ns = 0;
  uint64_t dominated_functions = 0;
  uint64_t dominated_calls = 0;
  double dominated_ns = 0;
  double process_cpu_ns = 0;  // the CPU time of every thread of the process so far
  // Of `calls`, those adaptive timing counted without timing, and what one costs.
  uint64_t untimed_calls = 0;
  double untimed_ns = 0;
  // Timed calls of sampled functions counted apart (preempted or interrupted: longer
  // than their function's outlier threshold, measure/adaptive_timing.hpp), and their
  // time: counted as they were, never extrapolated to the untimed calls.
  uint64_t preempted_calls = 0;
  double preempted_ns = 0;
};

// One thread's heap allocations (perf/alloc.hpp): every thread that allocated,
// measured or not. Bytes are the blocks' usable sizes.
struct thread_allocations {
  long tid = 0;      // 0: a row of exited threads, folded by name as in thread_stats
  std::string name;  // pthread_getname_np's, when it exited; /proc's while it runs
  bool exited = false;
  uint64_t allocations = 0;
  uint64_t bytes = 0;
  uint64_t frees = 0;
  uint64_t bytes_freed = 0;
  uint64_t peak_live_bytes = 0;  // highest `bytes - bytes_freed` of the thread (of a row: of its threads)
  uint64_t threads = 1;          // threads in the row
};

// What filled the allocation counters: perf::alloc's functions, the sanitizers'
// allocation hooks, or nothing (perf::alloc not linked, or another allocator before
// it: all counts are 0).
enum class allocation_counting { inactive, interposed, sanitizer_hooks };

// The name the reports give `counting` (the JSON report's "allocations.counting"):
// "inactive", "interposed" or "sanitizer hooks".
inline const char* counting_name(allocation_counting counting) {
  switch (counting) {
    case allocation_counting::interposed: return "interposed";
    case allocation_counting::sanitizer_hooks: return "sanitizer hooks";
    case allocation_counting::inactive: break;
  }
  return "inactive";
}

struct allocation_stats {
  allocation_counting counting = allocation_counting::inactive;
  std::vector<thread_allocations> threads;  // oldest first
};

// A measured function's switched calls: calls that ended on another thread than they
// began on, or off their thread's chain of open measured calls (a fiber or a coroutine
// switched away inside them; docs/usage.md, "Fibers and coroutines"). They are in no
// figure of `functions`, only counted here.
struct switched_calls {
  std::string name;
  std::string file;
  unsigned line = 0;
  uint64_t calls = 0;
};

struct snapshot {
  long pid = 0;
  std::vector<function_stats> functions;  // by total time, largest first
  std::vector<thread_stats> threads;
  clock_stats clock;
  probe_overhead overhead;
  ticklog_stats ticklog;
  allocation_stats allocations;
  sample_summary samples;                // the sampler's top 10 functions and lines, per process and per thread
  std::vector<switched_calls> switched;  // the functions with switched calls, most first
};

// Everything measured so far, in every thread, living or exited. Threads that are
// still running keep running; their newest calls may or may not be included.
PERF_DETAIL_EXPORT snapshot take_snapshot();

// The version of format_json's layout (docs/report-format.md), its "schema_version":
// raised when a reader of the previous version could misread the new one. Reports
// written before the field existed are version 1.
constexpr int json_schema_version = 2;

// The report as a text table (what the program prints at exit) or as JSON.
PERF_DETAIL_EXPORT std::string format_text(const snapshot& s);
PERF_DETAIL_EXPORT std::string format_json(const snapshot& s);

// Writes a fresh snapshot to `path` ("%p" becomes the process id): JSON when the
// path ends in ".json", a self-contained HTML page of that JSON when it ends in
// ".html" (docs/perf-report.md), the text table otherwise. The file is replaced whole or
// not at all. On failure, returns false after one warning line on stderr.
PERF_DETAIL_EXPORT bool write_report(const std::string& path);

}  // namespace perf

#endif  // PERF_REPORT_HPP
