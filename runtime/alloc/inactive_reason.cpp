#include "alloc/inactive_reason.hpp"

#include <dlfcn.h>
#include <link.h>

#include <string_view>

namespace perf::runtime {
namespace {

constexpr std::string_view interposer = "libperfalloc";

std::string_view file_name(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool has_interposer() {
  bool found = false;
  dl_iterate_phdr(
      [](dl_phdr_info* module, size_t, void* result) {
        if (module->dlpi_name == nullptr || !file_name(module->dlpi_name).starts_with(interposer)) return 0;
        *static_cast<bool*>(result) = true;
        return 1;
      },
      &found);
  return found;
}

}  // namespace

std::string counting_inactive_reason() {
  if (!has_interposer()) return {};
  Dl_info first{};
  void* first_malloc = dlsym(RTLD_DEFAULT, "malloc");
  if (first_malloc == nullptr || dladdr(first_malloc, &first) == 0 || first.dli_fname == nullptr)
    return "the malloc the program calls cannot be told; link perf::alloc first, or LD_PRELOAD libperfalloc.so";
  std::string_view owner = file_name(first.dli_fname);
  if (owner.starts_with(interposer))
    return "libperfalloc's functions are the program's, but the sanitizer's allocation hooks could not be installed";
  if (owner.empty()) owner = "the program itself";
  return std::string(owner) +
         " is ahead of libperfalloc in the link order; link perf::alloc before it (the zero-edit integration "
         "and perf_instrument_target() put it first), or LD_PRELOAD libperfalloc.so";
}

}  // namespace perf::runtime
