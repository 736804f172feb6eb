// An environment for the PERF_* parsers that holds only the variables a test gives it.
#ifndef PERF_TEST_RUNTIME_FAKE_ENVIRONMENT_HPP
#define PERF_TEST_RUNTIME_FAKE_ENVIRONMENT_HPP

#include <functional>
#include <map>
#include <string>

namespace perf::runtime {

// A getenv() over `variables`, which must outlive it.
inline std::function<const char*(const char*)> fake_environment(const std::map<std::string, std::string>& variables) {
  return [&variables](const char* name) -> const char* {
    const auto found = variables.find(name);
    return found == variables.end() ? nullptr : found->second.c_str();
  };
}

}  // namespace perf::runtime

#endif  // PERF_TEST_RUNTIME_FAKE_ENVIRONMENT_HPP
