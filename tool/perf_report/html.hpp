// perf-report html: one self-contained page (no network: inline CSS, script and
// SVG) for a report or a diff. The page carries its data as a JSON object that
// its script renders: a sortable function table, latency distributions from the
// histograms, a flame graph of folded stacks, allocation bars, per-thread figures.
#ifndef PERF_REPORT_TOOL_HTML_HPP
#define PERF_REPORT_TOOL_HTML_HPP

#include <string>

#include <nlohmann/json.hpp>

#include "diff.hpp"
#include "parsed_report.hpp"

namespace perf::perf_report {

// The pages embed the latency distributions (page_histogram.hpp) of the rows with the
// most time (a report's functions by total time, a diff's by |impact|) while their
// compact_counts texts fit in `distribution_bytes`; the other rows have null for
// theirs, and the page shows their figures and quantiles without a plot. The default
// keeps the page of a report of 10,000 functions under 5 MB (docs/perf-report.md).
constexpr size_t default_distribution_bytes = 3'000'000;

// `folded`: folded stacks ("a;b;c 12" lines, PERF_PROFILE's format) for the flame
// graph; empty for none.
std::string html_report_page(const report& r, const std::string& folded,
                             size_t distribution_bytes = default_distribution_bytes);
std::string html_diff_page(const diff_result& d, size_t distribution_bytes = default_distribution_bytes);

// The data the pages embed (tests read them): a report's functions as columns, files
// by index into "files", "distributions" the number of rows whose histogram is embedded.
nlohmann::json report_page_data(const report& r, const std::string& folded,
                                size_t distribution_bytes = default_distribution_bytes);
// A diff's rows, by impact, as columns (files by index into "files"): "fig" holds each
// figure's base ("b"), new ("n") and beyond-noise ("x", 0 or 1) columns, "hb" and "hn"
// the base and new histograms (or null).
nlohmann::json diff_page_data(const diff_result& d, size_t distribution_bytes = default_distribution_bytes);

}  // namespace perf::perf_report

#endif  // PERF_REPORT_TOOL_HTML_HPP
