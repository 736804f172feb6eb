// The sampler's lists of the hottest locations (samples.top, samples.lines) merged
// across reports. Each report lists only its own hottest few, so a location's merged
// count is exact only where every report lists it, or lists all its samples; else it
// is bounded by what the lists leave room for.
#ifndef PERF_REPORT_TOOL_SAMPLE_LISTS_HPP
#define PERF_REPORT_TOOL_SAMPLE_LISTS_HPP

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace perf::perf_report {

struct merged_hottest {
  // Every location some list names, most samples first: "samples" the count known
  // (a lower bound), "samples_at_most" added where it is not exact, "share" of `total`.
  nlohmann::json rows;
  // The most samples a location that no list names can have had.
  uint64_t unlisted_at_most = 0;
};

// Merges list `list` ("top" or "lines") of the `sections` (each report's "samples"),
// locations told apart by `key_fields`. What bounds a location a report does not list:
// the report's least listed count and its samples no list entry holds; for "top", also
// each thread's list (samples.threads[].top), which can name a function the report's
// list misses. A section written by a merge gives its own bounds ("samples_at_most",
// "unlisted_at_most").
merged_hottest merge_hottest(const std::vector<const nlohmann::json*>& sections, const std::string& list,
                             const std::vector<std::string>& key_fields, uint64_t total);

// Lists that name every location with samples (samples.measured, stacks) summed by
// `key_fields`, exactly; share recomputed against `total`, most first.
nlohmann::json summed_samples(const std::vector<const nlohmann::json*>& lists,
                              const std::vector<std::string>& key_fields, uint64_t total);

}  // namespace perf::perf_report

#endif  // PERF_REPORT_TOOL_SAMPLE_LISTS_HPP
