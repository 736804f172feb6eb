#include "core/cpu_model.hpp"

#if defined(__x86_64__)
#include <cpuid.h>

#include <cstring>
#elif defined(__aarch64__)
#include <fmt/format.h>

#include <cstdint>
#endif

namespace perf::runtime {

cpu_model this_cpu_model() {
  cpu_model m;
#if defined(__x86_64__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(1, &eax, &ebx, &ecx, &edx)) {
    const unsigned base_family = (eax >> 8) & 0xf, base_model = (eax >> 4) & 0xf;
    m.stepping = eax & 0xf;
    m.family = base_family == 0xf ? base_family + ((eax >> 20) & 0xff) : base_family;
    m.model = base_family == 0x6 || base_family == 0xf ? (((eax >> 16) & 0xf) << 4) + base_model : base_model;
  }
  if (__get_cpuid_max(0x80000000, nullptr) >= 0x80000004) {
    unsigned brand[12] = {};
    for (unsigned leaf = 0; leaf < 3; ++leaf)
      __get_cpuid(0x80000002 + leaf, &brand[4 * leaf], &brand[4 * leaf + 1], &brand[4 * leaf + 2],
                  &brand[4 * leaf + 3]);
    char text[sizeof brand + 1] = {};
    std::memcpy(text, brand, sizeof brand);
    const std::string padded = text;
    const size_t first = padded.find_first_not_of(' '), last = padded.find_last_not_of(' ');
    if (first != std::string::npos) m.name = padded.substr(first, last - first + 1);
  }
#elif defined(__aarch64__)
  uint64_t midr = 0;
  __asm__ __volatile__("mrs %0, midr_el1" : "=r"(midr));
  m.name = fmt::format("midr-{:x}", midr);
#endif
  if (m.name.empty()) m.name.push_back('?');
  return m;
}

}  // namespace perf::runtime
