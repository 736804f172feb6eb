// Whose code a symbolized frame is: the program's own, perf's (the runtime and the
// probes its headers put into the program), or a library's (C, C++, loader,
// sanitizers). A sample is charged to its innermost frame of the program's own code.
#ifndef PERF_RUNTIME_SAMPLER_CODE_OWNER_HPP
#define PERF_RUNTIME_SAMPLER_CODE_OWNER_HPP

#include <stdint.h>

#include <string_view>

namespace perf::runtime {

enum class code_owner : uint8_t { program, runtime, library };

// The owner of a frame of function `symbol` (as the debug information or the symbol
// table spells it: mangled for a C++ function with linkage), in source `file` (empty
// when unknown), in the module at `module_path` (empty: the address is in no module).
//
// perf's code is recognised by the mangled name's outermost namespace, `perf`: the
// probes (perf::detail::begin/end and what they inline) are instantiated in the
// program's own module, and a static runtime lies there whole, so an address range
// could not tell them from the program. The runtime's shared libraries (libperfrt,
// libperfalloc, ...) are recognised by module as well, for their C-linkage entry
// points (the interposed malloc, the pthread_create hook). A library's code is a
// frame of a system module (/lib, /usr/lib, the vDSO), of namespace std or
// __gnu_cxx, of a sanitizer, or inlined from a system header (/usr/include/...).
code_owner owner_of(std::string_view symbol, std::string_view file, std::string_view module_path);

// The owner of a frame that no symbol or debug information names, in the module at
// `module_path`. An interrupted instruction's is as owner_of() says of the module (a
// stripped program's own code is the program's). A return address's is a library's:
// one that no function holds is a padding byte's neighbour or a code pointer that a
// frame-pointer chain, run through a register used for data by code built without
// frame pointers, took for a return address (a vtable's entry): nothing to charge a
// sample to.
code_owner owner_of_unnamed(std::string_view module_path, bool return_address);

// The outermost namespace (or class) of the mangled C++ name `symbol`: "perf" for
// _ZN4perf6detail3endILb1EEEvRNS0_12thread_stateERNS0_5frameE, "std" for _ZSt4sortIPiEvT_S1_
// and _ZNKSt6vectorIiSaIiEE4sizeEv. Empty for a name that is not mangled or is in the
// global namespace.
std::string_view outermost_scope(std::string_view symbol);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_SAMPLER_CODE_OWNER_HPP
