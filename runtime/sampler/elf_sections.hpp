// The section headers of an ELF file on disk (they are not loaded with it): what the
// symbolizer reads beside libbacktrace, the linker stubs and the exported symbols.
// Never from a signal handler.
#ifndef PERF_RUNTIME_SAMPLER_ELF_SECTIONS_HPP
#define PERF_RUNTIME_SAMPLER_ELF_SECTIONS_HPP

#include <link.h>
#include <stddef.h>
#include <stdint.h>

#include <string>
#include <vector>

namespace perf::runtime {

struct elf_section {
  std::string name;
  ElfW(Shdr) header;
};

// Reads `size` bytes at `offset` of `fd`; false unless all were read.
bool read_at(int fd, void* out, size_t size, uint64_t offset);

// The sections of the ELF file open as `fd`, in the file's order (a section's
// sh_link indexes this list); empty when it is not an ELF file of this machine's
// class or cannot be read.
std::vector<elf_section> read_elf_sections(int fd);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_SAMPLER_ELF_SECTIONS_HPP
