// The sampling profiler: where every thread's CPU time goes, without registering
// anything. The runtime samples on its own from start-up to exit (PERF_SAMPLE_HZ,
// PERF_SAMPLE_CLOCK, PERF_SAMPLE_DEPTH, PERF_PROFILE in docs/usage.md); these
// functions read the samples, or write the profile, before that.
#ifndef PERF_SAMPLER_HPP
#define PERF_SAMPLER_HPP

#include <stdint.h>

#include <string>
#include <vector>

#include "perf/detail/compiler.hpp"

namespace perf {

// A function, or a source line, and the samples whose most interesting frame it
// is: the innermost frame in the program's own code (the runtime's, the C and C++
// libraries' and the loader's frames are passed over).
struct sampled_location {
  std::string function;  // demangled; "module+0xoffset" without a symbol
  std::string file;      // empty without debug information
  unsigned line = 0;     // 0 for a function's entry, and without debug information
  uint64_t samples = 0;
  double share = 0;  // of the samples it is counted among, from 0 to 1
  // The 95% interval of `share` (Wilson's, binomial on the interrupts behind the
  // samples: a timer's signal that counts several periods is one observation).
  double share_low = 0;
  double share_high = 0;
};

struct sampled_thread {
  long tid = 0;
  uint64_t samples = 0;
  std::vector<sampled_location> top_functions;  // share: of this thread's samples
};

// Samples whose thread was inside a measured function, counted against the
// innermost one (so they compare with its self time).
struct sampled_measured_function {
  std::string name;  // as the report names it
  uint64_t samples = 0;
  double share = 0;  // of all samples
};

struct sample_summary {
  unsigned hz = 0;    // samples per second of each thread's time; 0: sampling is off
  std::string clock;  // "cpu" or "wall"
  // What sent the signals: "perf_event" (a task-clock event per thread, driven by a
  // high-resolution timer) or "timer" (POSIX timers; on the CPU clock the kernel
  // checks them at its scheduler tick, so above that rate one signal counts several
  // samples).
  std::string source;
  uint64_t total = 0;       // samples taken, all threads
  uint64_t interrupts = 0;  // signals that counted them: the independent observations
  uint64_t dropped = 0;     // samples the runtime had no room for (more distinct stacks than it holds)
  // Why sampling stopped before the end, as a sentence; empty while it runs. (The
  // program installed its own handler on the sampler's signal.)
  std::string stopped;
  // Threads the kernel refused every sampling source (a seccomp filter refusing
  // perf_event_open and timer_create, out of timers), whose samples are never taken,
  // and why, as words; 0 and empty when every thread is sampled.
  uint64_t unsampled_threads = 0;
  std::string unsampled_why;
  // Samples taken inside perf's own code (a measured scope's begin and end, the
  // allocation counters): what measuring costs. The lists below charge them to the
  // program's code that called it.
  uint64_t probe_samples = 0;
  std::vector<sampled_location> top_functions;  // most samples first
  std::vector<sampled_location> top_lines;
  std::vector<sampled_thread> threads;  // most samples first
  std::vector<sampled_measured_function> measured;
};

// The `top` hottest functions and lines so far, per process and per thread (each
// thread's `top` functions). Symbolizes every sampled address: milliseconds, not
// for a hot loop. Safe from any thread while the others run.
PERF_DETAIL_EXPORT sample_summary take_sample_summary(unsigned top = 10);

// Writes the samples so far to `path` ("%p" becomes the process id): pprof's
// profile.proto, gzipped, when the path ends in ".pb.gz", folded stacks otherwise.
// The file is replaced whole or not at all. On failure, or with sampling off,
// returns false after one warning line on stderr.
PERF_DETAIL_EXPORT bool write_profile(const std::string& path);

}  // namespace perf

#endif  // PERF_SAMPLER_HPP
