// The sampler's PERF_* variables: PERF_SAMPLE_HZ, PERF_SAMPLE_CLOCK, PERF_SAMPLE_SOURCE,
// PERF_SAMPLE_DEPTH, PERF_SAMPLE_SIGNAL and PERF_PROFILE, parsed once at start-up.
#ifndef PERF_RUNTIME_SAMPLER_SAMPLE_CONFIG_HPP
#define PERF_RUNTIME_SAMPLER_SAMPLE_CONFIG_HPP

#include <functional>
#include <string>
#include <vector>

namespace perf::runtime {

// About 100 samples per second of each thread's CPU time: well under 1% of it.
constexpr unsigned default_sample_hz = 100;
constexpr unsigned max_sample_hz = 10000;
// Frames kept per sample, counting the interrupted instruction.
constexpr unsigned default_sample_depth = 128;
constexpr unsigned max_sample_depth = 256;

enum class sample_clock { cpu, wall };

// "cpu" or "wall", as PERF_SAMPLE_CLOCK, the report and the pprof sample type spell it.
const char* clock_name(sample_clock clock);

// A signal's name as PERF_SAMPLE_SIGNAL and the report spell it: "SIGURG",
// "SIGRTMAX-2", "SIGRTMIN+1" (the nearer end of the real-time range).
std::string signal_name(int signal);

// What sends the sample signal (sample_source.hpp): a perf_event task-clock event, or
// a POSIX timer (the fallback, and always for the wall clock or a real-time signal).
enum class sample_source { perf_event, timer };

// "perf_event" or "timer", as PERF_SAMPLE_SOURCE and the report spell it.
const char* source_name(sample_source source);

struct sample_config {
  unsigned hz = default_sample_hz;  // 0: sampling off
  sample_clock clock = sample_clock::cpu;
  unsigned depth = default_sample_depth;
  int signal = 0;  // PERF_SAMPLE_SIGNAL; 0: the first free of SIGURG, SIGPROF, SIGRTMAX...
  // PERF_SAMPLE_SOURCE: the one to use where the kernel allows it; `timer` forces
  // the fallback (to test it, or where the event's file descriptors are unwelcome).
  sample_source source = sample_source::perf_event;
  std::string profile_path;  // PERF_PROFILE, %p not yet expanded; empty: none
  // One line per value that could not be used, naming the variable.
  std::vector<std::string> warnings;
};

// Reads the variables through `getenv_fn`; a null result means unset.
sample_config parse_sample_config(const std::function<const char*(const char*)>& getenv_fn);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_SAMPLER_SAMPLE_CONFIG_HPP
