#include "sampler/modules.hpp"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <memory>
#include <mutex>
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
      if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 &&
          std::string_view(reinterpret_cast<const char*>(name), 3) == "GNU")
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
                  : modules.empty()                                        ? executable_path()
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

std::vector<loaded_module> mapped_modules() {
  std::vector<loaded_module> modules;
  dl_iterate_phdr(add_module, &modules);
  return modules;
}

bool same_mapping(const loaded_module& a, const loaded_module& b) { return a.start == b.start && a.path == b.path; }

// The modules dlclose unmapped, oldest first; a reloaded plugin unloaded again at
// the same address is kept once. The list is never changed in place: a new one
// replaces it, made with the mutex released, so that the mutex is held only to copy
// or swap a pointer, never across an allocation (dlclose runs in the program's
// code, with the program's locks perhaps held, and its allocator may be the
// program's).
struct unloaded_modules {
  using list = std::shared_ptr<const std::vector<loaded_module>>;
  std::mutex mutex;
  list modules = std::make_shared<const std::vector<loaded_module>>();  // guarded by `mutex`

  list now() {
    const std::lock_guard<std::mutex> lock(mutex);
    return modules;
  }
};

unloaded_modules& unloaded() {
  static auto* const list = new unloaded_modules;  // never destroyed: read at exit
  return *list;
}

constexpr size_t unloaded_kept = 256;

}  // namespace

std::vector<loaded_module> loaded_modules() {
  std::vector<loaded_module> modules = mapped_modules();
  const unloaded_modules::list gone = unloaded().now();
  modules.insert(modules.end(), gone->rbegin(), gone->rend());
  return modules;
}

std::vector<loaded_module> modules_of(void* handle) {
  link_map* map = nullptr;
  if (handle == nullptr || dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr) return {};
  std::vector<loaded_module> segments = mapped_modules();
  const std::string_view name = map->l_name != nullptr ? map->l_name : "";
  std::erase_if(segments, [&](const loaded_module& m) { return m.bias != map->l_addr || m.path != name; });
  return segments;
}

void remember_if_unloaded(std::vector<loaded_module> segments) {
  if (segments.empty()) return;
  const std::vector<loaded_module> mapped = mapped_modules();
  if (std::any_of(mapped.begin(), mapped.end(), [&](const loaded_module& m) { return same_mapping(m, segments[0]); }))
    return;  // still loaded: another handle holds it
  for (loaded_module& segment : segments) segment.unloaded = true;
  unloaded_modules& gone = unloaded();
  for (;;) {
    const unloaded_modules::list before = gone.now();
    auto after = std::make_shared<std::vector<loaded_module>>(*before);
    for (const loaded_module& segment : segments) {
      std::erase_if(*after, [&](const loaded_module& m) { return same_mapping(m, segment); });
      after->push_back(segment);
    }
    if (after->size() > unloaded_kept)
      after->erase(after->begin(), after->end() - static_cast<std::ptrdiff_t>(unloaded_kept));
    unloaded_modules::list replaced = std::move(after);
    {
      const std::lock_guard<std::mutex> lock(gone.mutex);
      if (gone.modules != before) continue;  // another dlclose's list came first: again, from it
      gone.modules.swap(replaced);
    }
    return;  // the old list is freed here, unlocked
  }
}

const loaded_module* module_at(const std::vector<loaded_module>& modules, uintptr_t pc) {
  for (const loaded_module& module : modules)
    if (pc >= module.start && pc < module.limit) return &module;
  return nullptr;
}

}  // namespace perf::runtime
