#include "linker_stubs.hpp"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <unistd.h>

#include <cstring>
#include <string_view>

namespace perf::runtime {
namespace {

// A section-name table larger than this is not a real one.
constexpr size_t max_names_bytes = 1 << 20;

bool read_at(int fd, void* out, size_t size, uint64_t offset) {
  return pread(fd, out, size, static_cast<off_t>(offset)) == static_cast<ssize_t>(size);
}

bool is_stub_section(std::string_view name) { return name == ".plt" || name.substr(0, 5) == ".plt."; }

std::vector<link_time_range> stub_sections(int fd) {
  ElfW(Ehdr) header;
  if (!read_at(fd, &header, sizeof header, 0) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
      header.e_shentsize != sizeof(ElfW(Shdr)) || header.e_shstrndx >= header.e_shnum)
    return {};
  std::vector<ElfW(Shdr)> sections(header.e_shnum);
  if (!read_at(fd, sections.data(), sections.size() * sizeof(ElfW(Shdr)), header.e_shoff)) return {};
  const ElfW(Shdr)& names_section = sections[header.e_shstrndx];
  if (names_section.sh_size > max_names_bytes) return {};
  std::string names(names_section.sh_size, '\0');
  if (!read_at(fd, names.data(), names.size(), names_section.sh_offset)) return {};
  std::vector<link_time_range> ranges;
  for (const ElfW(Shdr)& section : sections)
    if (section.sh_name < names.size() && is_stub_section(names.c_str() + section.sh_name))
      ranges.push_back({section.sh_addr, section.sh_addr + section.sh_size});
  return ranges;
}

}  // namespace

std::vector<link_time_range> linker_stub_ranges(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  std::vector<link_time_range> ranges = stub_sections(fd);
  close(fd);
  return ranges;
}

}  // namespace perf::runtime
