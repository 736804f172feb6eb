#include "sampler/linker_stubs.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <string_view>

#include "sampler/elf_sections.hpp"

namespace perf::runtime {
namespace {

bool is_stub_section(std::string_view name) { return name == ".plt" || name.substr(0, 5) == ".plt."; }

std::vector<link_time_range> stub_sections(int fd) {
  std::vector<link_time_range> ranges;
  for (const elf_section& section : read_elf_sections(fd))
    if (is_stub_section(section.name))
      ranges.push_back({section.header.sh_addr, section.header.sh_addr + section.header.sh_size});
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
