#include "sampler/elf_sections.hpp"

#include <elf.h>
#include <unistd.h>

#include <cstring>

namespace perf::runtime {
namespace {

// A section-name table larger than this is not a real one.
constexpr size_t max_names_bytes = 1 << 20;

}  // namespace

bool read_at(int fd, void* out, size_t size, uint64_t offset) {
  return pread(fd, out, size, static_cast<off_t>(offset)) == static_cast<ssize_t>(size);
}

std::vector<elf_section> read_elf_sections(int fd) {
  ElfW(Ehdr) header;
  if (!read_at(fd, &header, sizeof header, 0) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
      header.e_shentsize != sizeof(ElfW(Shdr)) || header.e_shstrndx >= header.e_shnum)
    return {};
  std::vector<ElfW(Shdr)> headers(header.e_shnum);
  if (!read_at(fd, headers.data(), headers.size() * sizeof(ElfW(Shdr)), header.e_shoff)) return {};
  const ElfW(Shdr)& names_section = headers[header.e_shstrndx];
  if (names_section.sh_size > max_names_bytes) return {};
  std::string names(names_section.sh_size, '\0');
  if (!read_at(fd, names.data(), names.size(), names_section.sh_offset)) return {};
  std::vector<elf_section> sections;
  for (const ElfW(Shdr) & section : headers)
    sections.push_back({section.sh_name < names.size() ? names.c_str() + section.sh_name : "", section});
  return sections;
}

}  // namespace perf::runtime
