#include "page_histogram.hpp"

namespace perf::perf_report {
namespace {

void append_number(std::string& out, uint64_t n) {
  static constexpr char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  for (; n >= 32; n >>= 5) out += digits[32 + (n & 31)];
  out += digits[n];
}

}  // namespace

std::string compact_counts(const histogram& h) {
  std::string out;
  if (h.buckets.empty()) return out;
  unsigned next = h.buckets.front().first;
  for (const auto& [bucket, count] : h.buckets) {
    if (bucket > next) append_number(out, 2 * uint64_t{bucket - next} - 1);
    append_number(out, 2 * count);
    next = bucket + 1;
  }
  return out;
}

nlohmann::json page_histogram(const histogram& h) {
  if (h.buckets.empty()) return nlohmann::json::array({h.ghz});
  return nlohmann::json::array({h.ghz, h.buckets.front().first, compact_counts(h)});
}

}  // namespace perf::perf_report
