// The sampler's part of the exit report: a section of the text table and the
// "samples" object of the JSON report (docs/report-format.md).
#ifndef PERF_RUNTIME_SAMPLER_REPORT_SECTION_HPP
#define PERF_RUNTIME_SAMPLER_REPORT_SECTION_HPP

#include <string>

#include "perf/sampler.hpp"

namespace perf::runtime {

// The hottest functions and lines with their share of the samples, then each
// thread's sample count and hottest functions. One line when sampling is off.
std::string format_samples_text(const sample_summary& s);

// `"samples": {...}` (no trailing comma or newline): hz, clock, total, dropped,
// top[] (functions), lines[], threads[] and measured[].
std::string format_samples_json(const sample_summary& s);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_SAMPLER_REPORT_SECTION_HPP
