// The runtime's one error idiom. A function that only does something returns its
// problem as a string, empty when all went well (write_file, start_sampling,
// start_server); one that makes something returns a value_or_problem. The caller
// words the consequence ("...; the live endpoint is off") and warns once. Neither can
// be dropped: value_or_problem is [[nodiscard]], and so is each function that returns
// a problem string.
#ifndef PERF_RUNTIME_CORE_VALUE_OR_PROBLEM_HPP
#define PERF_RUNTIME_CORE_VALUE_OR_PROBLEM_HPP

#include <string>

namespace perf::runtime {

template <class T>
struct [[nodiscard]] value_or_problem {
  T value{};            // what was made; meaningless unless `problem` is empty
  std::string problem;  // why nothing was made; empty when `value` is good
};

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_VALUE_OR_PROBLEM_HPP
