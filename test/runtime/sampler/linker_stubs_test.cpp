// The linker's stubs (the procedure linkage table): found as readelf lists them, and
// a sample that lands in one is charged to the code that called through it.
#include "sampler/linker_stubs.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <sstream>
#include <string>
#include <utility>

#include "sampler/modules.hpp"
#include "sampler/profile.hpp"

// The program's own code, as the sampler sees it (perf's is in namespace perf).
namespace program_code {

// The address this function returns to: in its caller, right after the call.
__attribute__((noinline)) uintptr_t return_address_of_this_call() {
  return reinterpret_cast<uintptr_t>(__builtin_return_address(0));
}

// An address in this function that follows a call, as a return address does.
__attribute__((noinline)) uintptr_t calls_a_library() {
  uintptr_t address = return_address_of_this_call();
  __asm__ __volatile__("" : "+r"(address));  // no tail call: the return comes back here
  return address;
}

}  // namespace program_code

namespace perf::runtime {
namespace {

// readelf's section table of `path`: the linker stubs as (address, size).
std::set<std::pair<uintptr_t, uintptr_t>> stub_sections_by_readelf(const std::string& path) {
  std::set<std::pair<uintptr_t, uintptr_t>> sections;
  FILE* pipe = popen(("readelf -SW '" + path + "'").c_str(), "r");
  if (pipe == nullptr) return sections;
  char line[512];
  while (std::fgets(line, sizeof line, pipe) != nullptr) {
    // "  [12] .plt              PROGBITS        0000000000005020 005020 000560 10  AX  0   0 16"
    std::istringstream words(std::strchr(line, ']') != nullptr ? std::strchr(line, ']') + 1 : "");
    std::string name, type, address, offset, size;
    if (!(words >> name >> type >> address >> offset >> size)) continue;
    if (name == ".plt" || name.rfind(".plt.", 0) == 0)
      sections.insert({std::stoull(address, nullptr, 16), std::stoull(size, nullptr, 16)});
  }
  pclose(pipe);
  return sections;
}

const loaded_module& this_executable() {
  static const std::vector<loaded_module> modules = loaded_modules();
  return modules.front();  // the executable comes first
}

TEST(LinkerStubs, AreTheSectionsReadelfLists) {
  const std::string& path = this_executable().path;
  const std::set<std::pair<uintptr_t, uintptr_t>> expected = stub_sections_by_readelf(path);
  ASSERT_FALSE(expected.empty()) << "readelf -SW " << path << " lists no .plt section";
  std::set<std::pair<uintptr_t, uintptr_t>> found;
  for (const link_time_range& range : linker_stub_ranges(path)) found.insert({range.start, range.limit - range.start});
  EXPECT_EQ(found, expected);
}

TEST(LinkerStubs, NoneInAFileThatIsNotElfOrIsMissing) {
  EXPECT_TRUE(linker_stub_ranges("/proc/self/status").empty());
  EXPECT_TRUE(linker_stub_ranges("/nonexistent/perf-instrument").empty());
}

// A sample whose interrupted instruction is a stub's: the stub is named as one (no
// symbol covers it) and is not "the most interesting element", its caller is.
TEST(LinkerStubs, ASampleInAStubIsChargedToTheCallerOfTheLibrary) {
  const loaded_module& executable = this_executable();
  const std::vector<link_time_range> stubs = linker_stub_ranges(executable.path);
  ASSERT_FALSE(stubs.empty());
  const uintptr_t in_stub = executable.bias + stubs.front().start;
  const uintptr_t caller = program_code::calls_a_library();
  sample_table table(16, 4);
  const uintptr_t frames[] = {in_stub, caller};
  table.add(1, 0, frames, 2, 3);
  const profile p = collect_profile(table, 1000, sample_clock::cpu);
  ASSERT_EQ(p.stacks.size(), 1u);
  ASSERT_EQ(p.stacks[0].locations.size(), 2u);
  const source_frame& stub_frame = p.locations[p.stacks[0].locations[0]].frames.front();
  EXPECT_NE(stub_frame.function.find(" (PLT)"), std::string::npos) << stub_frame.function;
  EXPECT_EQ(stub_frame.owner, code_owner::library);
  const source_frame& charged = most_interesting_frame(p, p.stacks[0]);
  EXPECT_EQ(charged.function, "program_code::calls_a_library()");
}

}  // namespace
}  // namespace perf::runtime
