// The runtime's warning log: one "perf: ..." line per problem, on stderr.
#ifndef PERF_RUNTIME_CORE_WARNINGS_HPP
#define PERF_RUNTIME_CORE_WARNINGS_HPP

#include <string>

namespace perf::runtime {

// Prints "perf: <message>" and a newline to stderr. Not async-signal-safe.
void warn(const std::string& message);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_WARNINGS_HPP
