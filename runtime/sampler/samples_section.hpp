// The sampler's section of the exit report: the hottest functions and lines, each
// thread's samples, and the sampled share of the measured functions; the "samples"
// object of the JSON report (docs/report-format.md).
#ifndef PERF_RUNTIME_SAMPLER_SAMPLES_SECTION_HPP
#define PERF_RUNTIME_SAMPLER_SAMPLES_SECTION_HPP

#include <string>

#include "perf/report.hpp"

namespace perf::runtime {

// The hottest functions and lines with their share of the samples, each thread's
// sample count (with its name from `s.threads`) and hottest functions, and each
// measured function's sampled share beside its self time. Nothing when sampling is
// off.
std::string format_samples_text(const snapshot& s);

// The "samples" object: hz, clock, total, dropped, top[] (functions), lines[],
// threads[] and measured[].
std::string format_samples_json(const snapshot& s);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_SAMPLER_SAMPLES_SECTION_HPP
