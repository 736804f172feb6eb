#include "core/warnings.hpp"

#include <cstdio>

namespace perf::runtime {

void warn(const std::string& message) { std::fprintf(stderr, "perf: %s\n", message.c_str()); }

}  // namespace perf::runtime
