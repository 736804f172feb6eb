#include "modules.hpp"

#include <elf.h>
#include <link.h>
#include <unistd.h>

#include <climits>
#include <string_view>

namespace perf::runtime {
namespace {

std::string executable_path() {
  char path[PATH_MAX];
  const ssize_t length = readlink("/proc/self/exe", path, sizeof path);
  return length > 0 ? std::string(path, static_cast<size_t>(length)) : std::string("[executable]");
}

std::string hex(const unsigned char* bytes, size_t size) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < size; ++i) {
    out += digits[bytes[i] >> 4];
    out += digits[bytes[i] & 15];
  }
  return out;
}

// The NT_GNU_BUILD_ID note among the module's PT_NOTE segments, which are loaded.
std::string build_id(const dl_phdr_info& info) {
  for (int i = 0; i < info.dlpi_phnum; ++i) {
    const ElfW(Phdr)& header = info.dlpi_phdr[i];
    if (header.p_type != PT_NOTE) continue;
    const auto* at = reinterpret_cast<const unsigned char*>(info.dlpi_addr + header.p_vaddr);
    const unsigned char* end = at + header.p_memsz;
    while (at + sizeof(ElfW(Nhdr)) <= end) {
      const auto* note = reinterpret_cast<const ElfW(Nhdr)*>(at);
      const unsigned char* name = at + sizeof(ElfW(Nhdr));
      const unsigned char* descriptor = name + ((note->n_namesz + 3) & ~3u);
      if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 && std::string_view(reinterpret_cast<const char*>(name), 3) == "GNU")
        return hex(descriptor, note->n_descsz);
      at = descriptor + ((note->n_descsz + 3) & ~3u);
    }
  }
  return {};
}

int add_module(dl_phdr_info* info, size_t, void* data) {
  auto& modules = *static_cast<std::vector<loaded_module>*>(data);
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& header = info->dlpi_phdr[i];
    if (header.p_type != PT_LOAD || (header.p_flags & PF_X) == 0) continue;
    loaded_module module;
    module.path = info->dlpi_name != nullptr && info->dlpi_name[0] != '\0' ? info->dlpi_name
                  : modules.empty()                                         ? executable_path()
                                                                            : "[unnamed]";
    module.start = info->dlpi_addr + header.p_vaddr;
    module.limit = module.start + header.p_memsz;
    module.file_offset = header.p_offset;
    module.bias = info->dlpi_addr;
    module.build_id = build_id(*info);
    modules.push_back(std::move(module));
  }
  return 0;
}

}  // namespace

std::vector<loaded_module> loaded_modules() {
  std::vector<loaded_module> modules;
  dl_iterate_phdr(add_module, &modules);
  return modules;
}

const loaded_module* module_at(const std::vector<loaded_module>& modules, uintptr_t pc) {
  for (const loaded_module& module : modules)
    if (pc >= module.start && pc < module.limit) return &module;
  return nullptr;
}

}  // namespace perf::runtime
