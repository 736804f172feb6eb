#include "sampler/code_owner.hpp"

namespace perf::runtime {
namespace {

bool is_system_module(std::string_view path) {
  for (std::string_view prefix : {"/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/", "linux-vdso", "linux-gate"})
    if (path.starts_with(prefix)) return true;
  return false;
}

// The runtime's shared libraries: libperfrt and the components packaged apart from it
// (runtime/CMakeLists.txt, perf_package_library).
bool is_runtime_module(std::string_view path) {
  const std::string_view name = path.substr(path.rfind('/') + 1);  // npos + 1: the whole path
  for (std::string_view library : {"libperfrt.so", "libperfalloc.so", "libperfexport.so", "libperfcompare.so"})
    if (name.starts_with(library)) return true;
  return false;
}

// Headers of the C and C++ libraries and the compilers' own.
bool is_system_header(std::string_view file) {
  for (std::string_view prefix : {"/usr/include/", "/usr/lib/gcc/", "/usr/lib/llvm-"})
    if (file.starts_with(prefix)) return true;
  return false;
}

// The sanitizers' functions: C names, or C++ ones in their own namespaces.
bool is_sanitizer(std::string_view symbol, std::string_view scope) {
  for (std::string_view prefix :
       {"__asan", "__tsan", "__ubsan", "__lsan", "__sanitizer", "__interceptor", "__interception"})
    if (symbol.starts_with(prefix) || scope.starts_with(prefix)) return true;
  return false;
}

}  // namespace

std::string_view outermost_scope(std::string_view symbol) {
  if (!symbol.starts_with("_Z")) return {};
  std::string_view rest = symbol.substr(2);
  // A local entity (_ZZ <function> E <entity>) belongs to its function's scope.
  if (rest.starts_with("Z")) rest.remove_prefix(1);
  const bool nested = rest.starts_with("N");
  if (nested) {
    rest.remove_prefix(1);
    while (!rest.empty() && (rest[0] == 'r' || rest[0] == 'V' || rest[0] == 'K' || rest[0] == 'R' || rest[0] == 'O'))
      rest.remove_prefix(1);
  }
  // St is std::; Sa, Sb, Ss, Si, So, Sd are std's abbreviations (std::allocator, ...).
  if (rest.size() >= 2 && rest[0] == 'S' && rest[1] >= 'a' && rest[1] <= 'z') return "std";
  if (!nested) return {};
  if (rest.starts_with("L")) rest.remove_prefix(1);  // internal linkage
  size_t length = 0, digits = 0;
  while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9')
    length = length * 10 + static_cast<size_t>(rest[digits++] - '0');
  if (digits == 0 || digits + length > rest.size()) return {};
  return rest.substr(digits, length);
}

code_owner owner_of(std::string_view symbol, std::string_view file, std::string_view module_path) {
  if (module_path.empty() || is_system_module(module_path)) return code_owner::library;
  if (is_runtime_module(module_path)) return code_owner::runtime;
  const std::string_view scope = outermost_scope(symbol);
  if (scope == "perf") return code_owner::runtime;
  if (scope == "std" || scope == "__gnu_cxx" || scope == "__cxxabiv1" || is_sanitizer(symbol, scope))
    return code_owner::library;
  if (is_system_header(file)) return code_owner::library;
  return code_owner::program;
}

code_owner owner_of_unnamed(std::string_view module_path, bool return_address) {
  return return_address ? code_owner::library : owner_of("", "", module_path);
}

}  // namespace perf::runtime
