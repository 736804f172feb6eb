// A histogram as the HTML pages embed it: [ghz, first bucket, counts as text], the
// text under half the size of the counts as JSON numbers. The page's script
// (runtime/report_format/page.js, `counts`) decodes it.
#ifndef PERF_REPORT_TOOL_PAGE_HISTOGRAM_HPP
#define PERF_REPORT_TOOL_PAGE_HISTOGRAM_HPP

#include <string>

#include <nlohmann/json.hpp>

#include "histogram.hpp"

namespace perf::perf_report {

// The counts of every bucket from the first nonzero one to the last, empty ones
// included, as numbers in base64url digits (A-Z a-z 0-9 - _ for 0 to 63), least
// significant first, 5 bits of the number per digit, 32 added to every digit but a
// number's last. A count n is the number 2n; a run of r empty buckets is 2r - 1.
// E.g. counts 1, 0, 0, 40 are "C" (2), "D" (3: two empty), "w" "C" (80 = 16 + 2 * 32).
std::string compact_counts(const histogram& h);

// [ghz, first bucket, compact_counts(h)]; [ghz] for an empty histogram.
nlohmann::json page_histogram(const histogram& h);

}  // namespace perf::perf_report

#endif  // PERF_REPORT_TOOL_PAGE_HISTOGRAM_HPP
