// The name a profile gives a function: demangled, with the suffixes the optimizer
// adds to the copies it makes of a function removed, so that every copy is counted
// as the function it was made from.
#ifndef PERF_RUNTIME_SAMPLER_FUNCTION_NAME_HPP
#define PERF_RUNTIME_SAMPLER_FUNCTION_NAME_HPP

#include <string>

namespace perf::runtime {

// The readable name of the function whose symbol is `symbol`:
//   _Z5parsePKc                  -> parse(char const*)
//   _Z5parsePKc.constprop.0      -> parse(char const*)     (a specialized copy)
//   _ZN4logs4scanEv.cold         -> logs::scan()           (its cold part)
//   main.cold, handler.part.0    -> main, handler          (C linkage: no mangling)
// A name that is neither mangled nor a C identifier with a suffix is kept as it is.
std::string function_name(const char* symbol);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_SAMPLER_FUNCTION_NAME_HPP
