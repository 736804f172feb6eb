// A library's exported functions (.dynsym): found as readelf lists them, and the one
// laid out before an address found for it.
#include "sampler/exported_symbols.hpp"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "sampler/modules.hpp"
#include "sampler/profile.hpp"

namespace perf::runtime {
namespace {

// readelf's defined FUNC and IFUNC symbols of `path`'s dynamic symbol table: (address, name).
std::multiset<std::pair<uintptr_t, std::string>> exported_by_readelf(const std::string& path) {
  std::multiset<std::pair<uintptr_t, std::string>> symbols;
  FILE* pipe = popen(("readelf -W --dyn-syms '" + path + "'").c_str(), "r");
  if (pipe == nullptr) return symbols;
  char line[1024];
  while (std::fgets(line, sizeof line, pipe) != nullptr) {
    // "   42: 00000000000a0ff0   280 FUNC    GLOBAL DEFAULT   15 malloc@@GLIBC_2.2.5"
    std::istringstream words(line);
    std::string number, value, size, type, bind, visibility, section, name;
    if (!(words >> number >> value >> size >> type >> bind >> visibility >> section >> name)) continue;
    if ((type != "FUNC" && type != "IFUNC") || section == "UND") continue;
    const uintptr_t address = std::stoull(value, nullptr, 16);
    if (address != 0) symbols.insert({address, name.substr(0, name.find('@'))});
  }
  pclose(pipe);
  return symbols;
}

const loaded_module& module_named(const char* name) {
  static const std::vector<loaded_module> modules = loaded_modules();
  for (const loaded_module& module : modules)
    if (module.path.find(name) != std::string::npos) return module;
  return modules.front();
}

TEST(ExportedSymbols, AreTheFunctionsReadelfListsInTheDynamicSymbolTable) {
  const std::string& path = module_named("libc.so").path;
  const std::multiset<std::pair<uintptr_t, std::string>> expected = exported_by_readelf(path);
  ASSERT_GT(expected.size(), 500u) << "readelf -W --dyn-syms " << path;
  std::multiset<std::pair<uintptr_t, std::string>> found;
  for (const exported_function& f : exported_functions(path)) found.insert({f.start, f.name});
  EXPECT_EQ(found, expected);
}

TEST(ExportedSymbols, TheOneBeforeAnAddressIsTheLastThatStartsAtOrBeforeIt) {
  const loaded_module& libc = module_named("libc.so");
  const std::vector<exported_function> functions = exported_functions(libc.path);
  // Not malloc: a sanitizer's malloc would be the one found first.
  const uintptr_t start = reinterpret_cast<uintptr_t>(dlsym(RTLD_DEFAULT, "gnu_get_libc_version")) - libc.bias;
  const exported_function* at = exported_function_before(functions, start + 3);
  ASSERT_NE(at, nullptr);
  EXPECT_EQ(at->start, start);
  EXPECT_EQ(exported_function_before(functions, functions.front().start - 1), nullptr);
}

// readelf's defined functions of `path` with their sizes, by address.
std::vector<std::tuple<uintptr_t, uintptr_t, std::string>> sized_functions_by_readelf(const std::string& path) {
  std::vector<std::tuple<uintptr_t, uintptr_t, std::string>> functions;
  FILE* pipe = popen(("readelf -W --dyn-syms '" + path + "'").c_str(), "r");
  if (pipe == nullptr) return functions;
  char line[1024];
  while (std::fgets(line, sizeof line, pipe) != nullptr) {
    std::istringstream words(line);
    std::string number, value, size, type, bind, visibility, section, name;
    if (!(words >> number >> value >> size >> type >> bind >> visibility >> section >> name)) continue;
    if (type != "FUNC" || section == "UND" || std::stoull(value, nullptr, 16) == 0) continue;
    functions.emplace_back(std::stoull(value, nullptr, 16), std::stoull(size, nullptr, 0),
                           name.substr(0, name.find('@')));
  }
  pclose(pipe);
  std::sort(functions.begin(), functions.end());
  return functions;
}

// The unwinder (libgcc_s) ships without a symbol table: an address in one of its
// internal functions, which libbacktrace cannot name, is named after the exported
// function laid out before it. A sample there is still the library's.
TEST(ExportedSymbols, AnUnnamedAddressInASystemLibraryIsNamedAfterTheExportedFunctionBeforeIt) {
  const loaded_module& unwinder = module_named("libgcc_s.so");
  ASSERT_NE(unwinder.path.find("libgcc_s.so"), std::string::npos) << "libgcc_s is not loaded";
  const auto functions = sized_functions_by_readelf(unwinder.path);
  uintptr_t unnamed = 0;
  std::string before;
  for (size_t i = 0; i + 1 < functions.size() && unnamed == 0; ++i) {
    const auto& [start, size, name] = functions[i];
    if (start + size + 64 < std::get<0>(functions[i + 1]) && start != std::get<0>(functions[i + 1])) {
      unnamed = start + size + 32;
      before = name;
    }
  }
  ASSERT_NE(unnamed, 0u) << "no gap between the exported functions of " << unwinder.path;
  sample_table table(16, 4);
  const uintptr_t frames[] = {unwinder.bias + unnamed};
  table.add(1, 0, frames, 1, 1);
  const profile p = collect_profile(table, 1000, sample_clock::cpu);
  ASSERT_EQ(p.stacks.size(), 1u);
  const source_frame& frame = p.locations[p.stacks[0].locations[0]].frames.front();
  char offset[32];
  std::snprintf(offset, sizeof offset, "%#lx", static_cast<unsigned long>(unnamed));
  EXPECT_EQ(frame.function, "libgcc_s.so.1+" + std::string(offset) + " (after " + before + ")");
  EXPECT_EQ(frame.owner, code_owner::library);
}

TEST(ExportedSymbols, NoneInAFileThatIsNotElfOrIsMissing) {
  EXPECT_TRUE(exported_functions("/proc/self/status").empty());
  EXPECT_TRUE(exported_functions("/nonexistent/perf-instrument").empty());
}

}  // namespace
}  // namespace perf::runtime
