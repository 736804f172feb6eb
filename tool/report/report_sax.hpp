// Parsing a report without building a JSON tree of its histograms, which are most
// of a large report (10,000 functions x ~100 buckets): everything else becomes
// JSON as nlohmann::json::parse would make it, each functions[] element apart, its
// "histogram" replaced by an empty array and its entries collected here.
#ifndef PERF_REPORT_TOOL_REPORT_SAX_HPP
#define PERF_REPORT_TOOL_REPORT_SAX_HPP

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace perf::report_tool {

struct parsed_histogram {
  std::vector<std::pair<unsigned, uint64_t>> buckets;
  bool well_formed = true;  // every entry was [unsigned, unsigned]
};

struct parsed_report {
  nlohmann::json document;                    // without "functions" when it was an array
  std::optional<std::vector<nlohmann::json>> functions;  // its elements, when it was one
  std::vector<parsed_histogram> histograms;  // per element (empty for those without one)
};

// Throws nlohmann::json::parse_error on text that is not JSON.
parsed_report parse_report_text(const std::string& text);

}  // namespace perf::report_tool

#endif  // PERF_REPORT_TOOL_REPORT_SAX_HPP
