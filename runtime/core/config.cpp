#include "core/config.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstring>

namespace perf::runtime {
namespace {

// PERF_THREADS: `all`, or how many exited threads the report lists one by one.
uint64_t parse_exited_threads_listed(std::string_view value, std::vector<std::string>& warnings) {
  if (value == "all") return all_exited_threads_listed;
  uint64_t count = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), count);
  if (error == std::errc() && end == value.data() + value.size()) return count;
  warnings.push_back(fmt::format("PERF_THREADS='{}' is neither `all` nor a count; listing {} exited threads", value,
                                 default_exited_threads_listed));
  return default_exited_threads_listed;
}

}  // namespace

config parse_config(const std::function<const char*(const char*)>& getenv_fn) {
  config result;
  if (const char* clock = getenv_fn("PERF_CLOCK")) result.clock = clock;
  if (const char* ticks = getenv_fn("PERF_TICKS"); ticks != nullptr && *ticks != '\0') {
    const std::string_view value = ticks;
    if (value == "off") result.ticks = false;
    else if (value != "on")
      result.warnings.push_back(fmt::format("PERF_TICKS='{}' is neither on nor off; the tick log stays on", value));
  }
  if (const char* listed = getenv_fn("PERF_THREADS"); listed != nullptr && *listed != '\0')
    result.exited_threads_listed = parse_exited_threads_listed(listed, result.warnings);
  return result;
}

bool expand_pid(std::string_view pattern, long pid, char* out, size_t capacity) noexcept {
  char digits[24];
  size_t digit_count = 0;
  for (unsigned long rest = static_cast<unsigned long>(pid); digit_count == 0 || rest != 0; rest /= 10)
    digits[digit_count++] = static_cast<char>('0' + rest % 10);
  size_t used = 0;
  for (size_t i = 0; i < pattern.size(); ++i) {
    const bool is_pid = pattern[i] == '%' && i + 1 < pattern.size() && pattern[i + 1] == 'p';
    const size_t needed = is_pid ? digit_count : 1;
    if (used + needed >= capacity) return false;
    if (is_pid) {
      for (size_t d = digit_count; d != 0; --d) out[used++] = digits[d - 1];
      ++i;
    } else {
      out[used++] = pattern[i];
    }
  }
  out[used] = '\0';
  return true;
}

std::string expand_pid(std::string_view pattern, long pid) {
  std::string out(pattern.size() * 12 + 1, '\0');  // "%p" becomes at most 20 digits
  expand_pid(pattern, pid, out.data(), out.size());
  out.resize(std::strlen(out.c_str()));
  return out;
}

}  // namespace perf::runtime
