#include "sampler/function_name.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <cstring>

namespace perf::runtime {
namespace {

bool identifier_character(char c) {
  return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

}  // namespace

std::string function_name(const char* symbol) {
  int status = 0;
  char* readable = abi::__cxa_demangle(symbol, nullptr, nullptr, &status);
  if (status == 0 && readable != nullptr) {
    std::string out = readable;
    std::free(readable);
    // The demangler spells the optimizer's suffix " [clone .constprop.0]".
    if (const size_t clone = out.find(" [clone "); clone != std::string::npos) out.resize(clone);
    return out;
  }
  // A C identifier cannot hold a '.': what follows the first one is the optimizer's.
  const size_t length = std::strlen(symbol);
  size_t end = 0;
  while (end < length && identifier_character(symbol[end])) ++end;
  if (end > 0 && end + 1 < length && symbol[end] == '.' && !(symbol[0] >= '0' && symbol[0] <= '9'))
    return std::string(symbol, end);
  return std::string(symbol, length);
}

}  // namespace perf::runtime
