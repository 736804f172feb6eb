#include "heap/heap_sample_config.hpp"

#include <fmt/format.h>

#include <charconv>
#include <string_view>

namespace perf::runtime {

heap_sample_config parse_heap_sample_config(const std::function<const char*(const char*)>& getenv_fn) {
  heap_sample_config result;
  const char* text = getenv_fn("PERF_HEAP_SAMPLE");
  if (text == nullptr || *text == '\0') return result;
  const std::string_view value = text;
  uint64_t bytes = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), bytes);
  if (error == std::errc() && end == value.data() + value.size() && bytes <= max_heap_sample_bytes) {
    result.bytes = bytes;
    return result;
  }
  result.warnings.push_back(fmt::format("PERF_HEAP_SAMPLE='{}' is not a number of bytes from 0 to {}; using 0 (off)",
                                        value, max_heap_sample_bytes));
  return result;
}

}  // namespace perf::runtime
