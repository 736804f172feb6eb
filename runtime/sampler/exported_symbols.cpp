#include "sampler/exported_symbols.hpp"

#include <elf.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>

#include "sampler/elf_sections.hpp"

namespace perf::runtime {
namespace {

// A dynamic symbol or string table larger than this is not a real one.
constexpr uint64_t max_table_bytes = 64 << 20;

std::vector<exported_function> read_exported(int fd) {
  const std::vector<elf_section> sections = read_elf_sections(fd);
  std::vector<exported_function> functions;
  for (const elf_section& symbols : sections) {
    if (symbols.header.sh_type != SHT_DYNSYM || symbols.header.sh_link >= sections.size()) continue;
    const ElfW(Shdr)& strings = sections[symbols.header.sh_link].header;
    if (symbols.header.sh_size > max_table_bytes || strings.sh_size > max_table_bytes) return {};
    std::vector<ElfW(Sym)> entries(symbols.header.sh_size / sizeof(ElfW(Sym)));
    std::string names(strings.sh_size, '\0');
    if (!read_at(fd, entries.data(), entries.size() * sizeof(ElfW(Sym)), symbols.header.sh_offset) ||
        !read_at(fd, names.data(), names.size(), strings.sh_offset))
      return {};
    for (const ElfW(Sym) & entry : entries) {
      const unsigned type = ELF64_ST_TYPE(entry.st_info);
      if ((type != STT_FUNC && type != STT_GNU_IFUNC) || entry.st_shndx == SHN_UNDEF || entry.st_value == 0 ||
          entry.st_name >= names.size())
        continue;
      functions.push_back({entry.st_value, names.c_str() + entry.st_name});
    }
  }
  std::sort(functions.begin(), functions.end(),
            [](const exported_function& a, const exported_function& b) { return a.start < b.start; });
  return functions;
}

}  // namespace

std::vector<exported_function> exported_functions(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  std::vector<exported_function> functions = read_exported(fd);
  close(fd);
  return functions;
}

const exported_function* exported_function_before(const std::vector<exported_function>& functions,
                                                  uintptr_t link_address) {
  const auto after = std::upper_bound(functions.begin(), functions.end(), link_address,
                                      [](uintptr_t address, const exported_function& f) { return address < f.start; });
  return after == functions.begin() ? nullptr : &*(after - 1);
}

}  // namespace perf::runtime
