// The sampler's stacks through code without frame pointers (library_paths_probe: the
// C library's qsort and snprintf, libstdc++'s strings and maps, and the program's own
// code, none keeping frame pointers), read back with `go tool pprof -raw`: every
// stack reaches the thread's start, no frame lies under itself unless its function
// calls itself, and no loader function calls the program's or the C library's code.
// Walked by frame pointers, these stacks invented callers (_dl_fixup calling printf)
// and repeated frames under themselves.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "go_pprof.hpp"

namespace {

// The stacks need samples taken where the signal arrives. ThreadSanitizer runs a
// signal's handler only when the thread next enters its runtime, with the context of
// the instruction it interrupted, whose stack has moved on since: under TSan this is
// not built (as sampling_test.cpp's shares are not).
#if !defined(__SANITIZE_THREAD__)

namespace fs = std::filesystem;
using perf::testing::probe_result;

// A location of `go tool pprof -raw`: the function its address lies in (the outermost
// of its inlined frames: the physical frame's) and its module's path.
struct raw_location {
  std::string function;
  std::string module;
};

struct raw_profile {
  std::vector<std::pair<uint64_t, std::vector<int>>> samples;  // count, location ids innermost first
  std::map<int, raw_location> locations;
};

std::string short_name(std::string demangled_name);

// The function of a frame line of a location: its full name, printed after "s=N" in
// parentheses, else the word after "M=n" (or the line's first word, on the line of an
// outer inlined frame), shortened (short_name).
std::string frame_name(const std::string& line) {
  const size_t start = line.rfind(" s=");
  if (start != std::string::npos) {
    const size_t open = line.find('(', start);
    if (open != std::string::npos && line.back() == ')')
      return short_name(line.substr(open + 1, line.size() - open - 2));
  }
  std::istringstream words(line);
  std::string word;
  while (words >> word)
    if (word.rfind("M=", 0) != 0 && word.back() != ':' && word.rfind("0x", 0) != 0) return short_name(word);
  return "";
}

raw_profile parse_raw(const std::string& text) {
  raw_profile profile;
  std::map<int, std::string> module_paths;  // mapping id -> path
  std::map<int, int> location_module;
  std::istringstream lines(text);
  std::string line, section;
  int last_location = 0;
  while (std::getline(lines, line)) {
    if (line == "Samples:" || line == "Locations" || line == "Mappings") {
      section = line;
      continue;
    }
    std::istringstream words(line);
    if (section == "Samples:" && line.find(": ") != std::string::npos && line.find("thread") == std::string::npos) {
      uint64_t count = 0;
      std::string nanoseconds;
      if (!(words >> count >> nanoseconds)) continue;
      std::vector<int> ids;
      int id = 0;
      while (words >> id) ids.push_back(id);
      profile.samples.push_back({count, ids});
    } else if (section == "Locations") {
      int id = 0;
      char colon = 0;
      if (line.size() > 6 && line[6] == ':' && (words >> id >> colon)) {
        last_location = id;
        std::string address, mapping;
        words >> address >> mapping;
        location_module[id] = mapping.rfind("M=", 0) == 0 ? std::stoi(mapping.substr(2)) : 0;
        profile.locations[id].function = frame_name(line);
      } else if (!line.empty()) {
        profile.locations[last_location].function = frame_name(line);  // an outer inlined frame
      }
    } else if (section == "Mappings") {
      int id = 0;
      char colon = 0;
      std::string range, path;
      if (words >> id >> colon >> range >> path) module_paths[id] = path;
    }
  }
  for (auto& [id, location] : profile.locations) location.module = module_paths[location_module[id]];
  return profile;
}

// The functions of `program` whose own code calls them (objdump -d): the recursion
// that may put a frame under itself.
std::set<std::string> self_callers(const std::string& program) {
  const probe_result disassembly = perf::testing::run_command("objdump -d -C --no-show-raw-insn " + program);
  std::set<std::string> callers;
  std::istringstream lines(disassembly.output);
  std::string line, function;
  while (std::getline(lines, line)) {
    const size_t open = line.find('<'), close = line.rfind('>');
    if (open == std::string::npos || close == std::string::npos || close < open) continue;
    const std::string name = line.substr(open + 1, close - open - 1);
    if (line.size() > close + 1 && line[close + 1] == ':') function = name;
    else if (line.find("call") != std::string::npos && name == function) callers.insert(name);
  }
  return callers;
}

// A demangled name without its return type, template arguments and parameters:
// "void std::__introsort_loop<...>(...)" is std::__introsort_loop.
std::string short_name(std::string demangled_name) {
  const std::string anonymous = "(anonymous namespace)";
  for (size_t at; (at = demangled_name.find(anonymous)) != std::string::npos;)
    demangled_name.erase(at, anonymous.size());
  std::string name = demangled_name.substr(0, demangled_name.find('('));
  std::string shortened;
  int depth = 0;
  for (char c : name) {
    if (c == '<') ++depth;
    else if (c == '>') --depth;
    else if (depth == 0) shortened += c;
  }
  const size_t space = shortened.rfind(' ');
  return space == std::string::npos ? shortened : shortened.substr(space + 1);
}

bool is_loader(const std::string& module) { return module.find("ld-linux") != std::string::npos; }

TEST(LibraryPaths, EveryStackReachesItsThreadsStartWithNoInventedOrRepeatedFrame) {
  const fs::path dir = fs::temp_directory_path() / ("perf_library_paths_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "profile.pb.gz").string();
  const probe_result run =
      perf::testing::run_probe_program(PERF_LIBRARY_PATHS_PROBE, "PERF_SAMPLE_HZ=1000 PERF_PROFILE=" + path, "0.6");
  ASSERT_EQ(run.status, 0) << run.output;
  const probe_result raw = perf::testing::go_tool_pprof("-raw " + path, dir);
  ASSERT_EQ(raw.status, 0) << raw.output;
  const raw_profile profile = parse_raw(raw.output);

  // Recursion on these paths: the program's own (std::sort's introsort, the map's
  // _M_erase, instantiated in it), and the C library's merge sort behind qsort
  // (msort_with_tmp calls itself in glibc's stdlib/msort.c; the library's own symbols
  // are not in its dynamic table for objdump to see).
  std::set<std::string> recursive = {"msort_with_tmp"};
  for (const std::string& name : self_callers(PERF_LIBRARY_PATHS_PROBE)) recursive.insert(short_name(name));

  uint64_t total = 0, whole = 0, repeated = 0, invented = 0;
  std::string examples;
  for (const auto& [count, ids] : profile.samples) {
    total += count;
    std::vector<raw_location> frames;
    for (int id : ids) frames.push_back(profile.locations.at(id));
    const std::string& root = frames.back().function;
    if (root == "_start" || root == "clone3" || root == "clone") whole += count;
    else if (examples.size() < 2000) examples += "ends at " + root + "\n";
    for (size_t i = 0; i + 1 < frames.size(); ++i) {
      const raw_location &callee = frames[i], &caller = frames[i + 1];
      if (callee.function == caller.function && !recursive.count(callee.function)) {
        repeated += count;
        examples += callee.function + " under itself\n";
      }
      // The loader calls the program's code only to run its initializers and finalizers.
      if (is_loader(caller.module) && !is_loader(callee.module) && caller.function != "call_init" &&
          caller.function != "_dl_init" && caller.function != "_dl_fini") {
        invented += count;
        examples += caller.function + " calling " + callee.function + "\n";
      }
    }
  }
  ASSERT_GT(total, 500u) << raw.output.substr(0, 4000);
  EXPECT_EQ(repeated, 0u) << examples;
  EXPECT_EQ(invented, 0u) << examples;
  EXPECT_GE(static_cast<double>(whole), 0.95 * static_cast<double>(total)) << examples;
  fs::remove_all(dir);
}

#endif  // !defined(__SANITIZE_THREAD__)

}  // namespace
