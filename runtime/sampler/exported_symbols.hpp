// The functions a shared library exports (its .dynsym): a system library is shipped
// without its symbol table, so an address in one of its internal functions has no
// name libbacktrace can give; the exported function laid out before it says where
// it is ("libgcc_s.so.1+0x154bb (after _Unwind_Find_FDE)"). Never from a signal handler.
#ifndef PERF_RUNTIME_SAMPLER_EXPORTED_SYMBOLS_HPP
#define PERF_RUNTIME_SAMPLER_EXPORTED_SYMBOLS_HPP

#include <stdint.h>

#include <string>
#include <vector>

namespace perf::runtime {

struct exported_function {
  uintptr_t start;   // link-time address: a loaded module's is this plus its bias
  std::string name;  // as the file spells it (mangled, for C++)
};

// The defined functions of the ELF file at `path`'s dynamic symbol table, by address.
// Empty when the file cannot be read or exports none.
std::vector<exported_function> exported_functions(const std::string& path);

// The last of `functions` (sorted by address) that starts at or before
// `link_address`; null when none does.
const exported_function* exported_function_before(const std::vector<exported_function>& functions,
                                                  uintptr_t link_address);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_SAMPLER_EXPORTED_SYMBOLS_HPP
