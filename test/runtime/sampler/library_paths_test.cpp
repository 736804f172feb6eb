// The sampler's stacks through code without frame pointers (library_paths_probe: the
// C library's qsort calling a measured comparator, snprintf, libstdc++'s strings and
// maps, and the program's own code, none keeping frame pointers), read back with
// `go tool pprof -raw`: every stack reaches the thread's start, no frame lies under
// itself unless its function calls itself, and no caller -> callee edge is one the
// caller's code cannot make (objdump -d and nm of each module: a direct call, a
// pointer's call of a function whose address is taken, a tail call). Walked by frame
// pointers (main before issue 38, the probe built with them), 59 to 72 of about 3,600
// judged edges were impossible (_M_get_insert_hint_unique_pos calling malloc, the
// loader's _dl_runtime_resolve_xsavec calling __printf_fp_l), 14 to 52 samples had a
// frame under itself, and no stack reached _start.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
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

// What the modules' code can call, by objdump -d and nm: for each function (its short
// name; its clones and cold parts are one), the functions its direct calls name, those
// its direct jumps out of it name (tail calls), whether it calls through a pointer,
// and whether it calls or jumps to code no symbol names (a library's local functions,
// which its dynamic table leaves out); the functions whose address code takes (which
// a pointer may then call); and the names that one address goes by.
struct call_graph {
  std::map<std::string, std::set<std::string>> calls, jumps, aliases;
  std::set<std::string> known, calls_through_pointer, jumps_through_pointer, calls_unnamed, address_taken, ifuncs;
};

// The name a function goes by in both objdump's and pprof's listings: its short name
// without a symbol version ("@@GLIBC_2.2.5"), a PLT suffix or leading underscores
// (glibc's snprintf is __snprintf to its debug information).
std::string plain_name(const std::string& name) {
  std::string plain = short_name(name.substr(0, name.find('@')));
  plain.erase(0, plain.find_first_not_of('_'));
  return plain.substr(0, plain.find('.'));  // a C function's part: f.part.0, f.cold
}

void add_aliases(call_graph& graph, const std::string& listing) {
  std::map<std::string, std::set<std::string>> at_address;
  std::istringstream lines(listing);
  std::string line;
  while (std::getline(lines, line)) {
    const size_t space = line.find(' '), name = line.find(' ', space + 1);
    if (space != 16 || name == std::string::npos ||
        (line[space + 1] != 'T' && line[space + 1] != 'W' && line[space + 1] != 't' && line[space + 1] != 'i'))
      continue;
    at_address[line.substr(0, space)].insert(plain_name(line.substr(name + 1)));
    // An IFUNC: its callers reach one of the library's local variants (memset's).
    if (line[space + 1] == 'i') graph.ifuncs.insert(plain_name(line.substr(name + 1)));
  }
  for (const auto& [address, names] : at_address)
    for (const std::string& name : names) {
      graph.aliases[name].insert(names.begin(), names.end());
      graph.known.insert(name);
    }
}

void add_module(call_graph& graph, const std::string& module) {
  add_aliases(graph, perf::testing::run_command("nm -C --defined-only '" + module + "'").output);
  add_aliases(graph, perf::testing::run_command("nm -D -C --defined-only '" + module + "'").output);
  const probe_result disassembly = perf::testing::run_command("objdump -d -C --no-show-raw-insn '" + module + "'");
  std::istringstream lines(disassembly.output);
  std::string line, function;
  while (std::getline(lines, line)) {
    const size_t open = line.find('<'), close = line.rfind('>');
    if (!line.empty() && line[0] != ' ' && open != std::string::npos && close != std::string::npos &&
        line.size() > close + 1 && line[close + 1] == ':') {
      function = plain_name(line.substr(open + 1, close - open - 1));
      graph.known.insert(function);
      continue;
    }
    const size_t tab = line.find('\t');  // after the address
    if (function.empty() || tab == std::string::npos) continue;
    const std::string instruction = line.substr(tab + 1);
    const bool call = instruction.rfind("call", 0) == 0, jump = instruction.rfind("jmp", 0) == 0;
    const size_t operand = instruction.find_first_not_of(' ', instruction.find(' '));
    // Through a pointer: a call, or a tail call, may reach any function whose address
    // is taken (a PLT entry's jump is its symbol's call, below).
    if ((call || jump) && operand != std::string::npos && instruction[operand] == '*') {
      (call ? graph.calls_through_pointer : graph.jumps_through_pointer).insert(function);
      continue;
    }
    if (open == std::string::npos || close == std::string::npos || close < open) continue;
    std::string target = line.substr(open + 1, close - open - 1);
    // Code no symbol names: an offset from the nearest symbol, or the library's own
    // PLT entry of an IFUNC (memmove's variants).
    const bool unnamed = target.find("*ABS*") != std::string::npos || target.find("+0x") != std::string::npos ||
                         target.find("-0x") != std::string::npos;
    if (call || jump) {
      if (unnamed) {
        if (call || plain_name(target.substr(0, target.find_first_of("+-"))) != function)
          graph.calls_unnamed.insert(function);
        continue;
      }
      target = plain_name(target);
      if (call) graph.calls[function].insert(target);
      else if (target != function) graph.jumps[function].insert(target);
    } else if (!unnamed) {
      graph.address_taken.insert(plain_name(target));
    }
  }
}

// The names of the function `name` names (objdump labels an address by one of them).
std::set<std::string> names_of(const call_graph& graph, const std::string& name) {
  const auto at = graph.aliases.find(name);
  return at == graph.aliases.end() ? std::set<std::string>{name} : at->second;
}

bool same_function(const call_graph& graph, const std::string& a, const std::string& b) {
  return a == b || names_of(graph, a).count(b) != 0;
}

// The functions a call of `callee` may leave frames of: it, and those its tail calls reach.
void tail_reach(const call_graph& graph, const std::string& callee, std::set<std::string>& reached) {
  if (!reached.insert(callee).second) return;
  for (const std::string& name : names_of(graph, callee))
    if (const auto at = graph.jumps.find(name); at != graph.jumps.end())
      for (const std::string& next : at->second) tail_reach(graph, next, reached);
}

// Whether `caller`'s code can make a frame of `callee` (in the program itself or not)
// its callee: it calls a function that is the callee or reaches it by tail calls; or
// it calls through a pointer (or reaches a tail call through one: a sanitizer's
// wrapper of a callback), and the callee is a library's (whose local functions'
// addresses objdump cannot follow) or the program's with its address taken; or it
// calls code no symbol names (or an IFUNC, whose variants
// none names), and no symbol names the callee either. A caller objdump cannot see (a
// library's local function) is not judged: `judged` is then false.
bool can_call(const call_graph& graph, const std::string& caller, const std::string& callee, bool callee_in_program,
              bool& judged) {
  judged = graph.known.count(caller) != 0;
  if (!judged) return true;
  const std::set<std::string> callers = names_of(graph, caller);
  auto any = [&](const std::set<std::string>& of) {
    for (const std::string& name : callers)
      if (of.count(name) != 0) return true;
    return false;
  };
  std::set<std::string> reached;
  for (const std::string& name : callers)
    if (const auto calls = graph.calls.find(name); calls != graph.calls.end())
      for (const std::string& target : calls->second) tail_reach(graph, target, reached);
  for (const std::string& function : reached)
    if (same_function(graph, function, callee)) return true;
  bool through_pointer = any(graph.calls_through_pointer), unnamed = any(graph.calls_unnamed);
  for (const std::string& function : reached) {
    through_pointer |= graph.jumps_through_pointer.count(function) != 0;
    unnamed |= graph.calls_unnamed.count(function) != 0 || graph.ifuncs.count(function) != 0;
  }
  if (through_pointer && (!callee_in_program || graph.address_taken.count(callee) != 0)) return true;
  return unnamed && graph.known.count(callee) == 0;
}

// The functions whose own code calls them: the recursion that may put a frame under itself.
std::set<std::string> self_callers(const call_graph& graph) {
  std::set<std::string> callers;
  for (const auto& [function, targets] : graph.calls)
    if (targets.count(function) != 0) callers.insert(function);
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

// library_paths_probe sampled at 1 kHz for 0.6 s of CPU time a thread, its profile
// written in `dir` and read by `go tool pprof PPROF_ARGS`: pprof's output, or the
// probe's when the probe fails.
probe_result library_paths_profile(const fs::path& dir, const std::string& pprof_args) {
  fs::create_directories(dir);
  const std::string path = (dir / "profile.pb.gz").string();
  const probe_result run =
      perf::testing::run_probe_program(PERF_LIBRARY_PATHS_PROBE, "PERF_SAMPLE_HZ=1000 PERF_PROFILE=" + path, "0.6");
  if (run.status != 0) return run;
  return perf::testing::go_tool_pprof(pprof_args + " " + path, dir);
}

TEST(LibraryPaths, EveryStackReachesItsThreadsStartWithNoInventedOrRepeatedFrame) {
  const fs::path dir = fs::temp_directory_path() / ("perf_library_paths_" + std::to_string(getpid()));
  const probe_result raw = library_paths_profile(dir, "-raw");
  ASSERT_EQ(raw.status, 0) << raw.output;
  const raw_profile profile = parse_raw(raw.output);

  // What each module's code can call (objdump -d of the modules in the profile).
  call_graph graph;
  std::set<std::string> modules;
  for (const auto& [id, location] : profile.locations) modules.insert(location.module);
  for (const std::string& module : modules)
    if (!module.empty() && fs::is_regular_file(module)) add_module(graph, module);
  const std::string program = fs::canonical(PERF_LIBRARY_PATHS_PROBE).string();

  // Recursion on these paths: the program's own (std::sort's introsort, the map's
  // _M_erase, instantiated in it), and the C library's merge sort behind qsort
  // (msort_with_tmp calls itself in glibc's stdlib/msort.c; the library's own symbols
  // are not in its dynamic table for objdump to see).
  std::set<std::string> recursive = self_callers(graph);
  recursive.insert("msort_with_tmp");

  uint64_t total = 0, whole = 0, repeated = 0, invented = 0, judged_edges = 0;
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
      const std::string callee_name = plain_name(callee.function), caller_name = plain_name(caller.function);
      if (callee_name == caller_name && !recursive.count(callee_name)) {
        repeated += count;
        examples += callee.function + " under itself\n";
      }
      bool judged = false;
      bool possible = can_call(graph, caller_name, callee_name, callee.module == program, judged);
      // The loader calls the program's code only to run its initializers and finalizers.
      if (is_loader(caller.module) && !is_loader(callee.module) && caller_name != "call_init" &&
          caller_name != "dl_init" && caller_name != "dl_fini")
        possible = false, judged = true;
      judged_edges += judged ? count : 0;
      if (!possible) {
        invented += count;
        if (examples.size() < 4000) examples += caller.function + " calling " + callee.function + "\n";
      }
    }
  }
  std::printf("%llu samples, %llu caller-callee edges judged by objdump, %llu impossible\n",
              static_cast<unsigned long long>(total), static_cast<unsigned long long>(judged_edges),
              static_cast<unsigned long long>(invented));
  ASSERT_GT(total, 500u) << raw.output.substr(0, 4000);
  EXPECT_EQ(repeated, 0u) << examples;
  EXPECT_EQ(invented, 0u) << examples;
  EXPECT_GE(static_cast<double>(whole), 0.95 * static_cast<double>(total)) << examples;
  fs::remove_all(dir);
}

// Whether `function` is the loader's lazy symbol binding, which issue 38's profiles
// showed as callers of the program's code when walked by frame pointers.
bool is_lazy_binding(const std::string& function) {
  return function.rfind("_dl_", 0) == 0 || function == "check_match" || function == "do_lookup_x";
}

// `go tool pprof -top -cum`, as a user reads where the time goes: run_paths, which both
// threads run, holds (nearly) every sample; the two threads' starts (_start through
// main, clone3 through worker) share them all; every row at or above the smaller
// thread's share is one of those frames; the loader's lazy binding holds at most 1%,
// and printf's internals no more than format_lines, their only caller. Walked by frame
// pointers (before issue 38), a program like this one showed _dl_fixup at 14.6% and
// check_match at 12.5% cumulative, above most of its own functions.
TEST(LibraryPaths, GoToolPprofTopCumPutsTheThreadsStartsFirstAndTheLoaderNowhereAboveTheProgram) {
  const fs::path dir = fs::temp_directory_path() / ("perf_library_paths_cum_" + std::to_string(getpid()));
  const probe_result top = library_paths_profile(dir, "-top -cum -nodefraction=0 -nodecount=100000");
  ASSERT_EQ(top.status, 0) << top.output;
  std::map<std::string, double> cum;
  for (const perf::testing::pprof_top_row& row : perf::testing::pprof_top_rows(top.output))
    cum[row.name] = row.cum_percent;
  ASSERT_GT(cum.size(), 20u) << top.output;

  // A sample may fall outside run_paths only in main's pthread_create and before.
  EXPECT_GE(cum["::run_paths"], 99.0) << top.output;
  EXPECT_GE(cum["_start"] + cum["clone3"], 99.9) << top.output;
  EXPECT_NEAR(cum["main"], cum["_start"], 1.0) << top.output;
  EXPECT_EQ(cum["::worker"], cum["clone3"]) << top.output;
  EXPECT_GT(cum["::worker"], 30.0) << top.output;  // the threads run for the same CPU time
  EXPECT_GT(cum["main"], 30.0) << top.output;

  // The start routines (the C library's, and the runtime's of the threads it samples,
  // under ASan) and the program's two roots: nothing else reaches a thread's share.
  const std::set<std::string> roots = {"_start",
                                       "__libc_start_main",
                                       "__libc_start_call_main",
                                       "main",
                                       "clone3",
                                       "start_thread",
                                       "perf::runtime::::start_sampled_thread",
                                       "::worker",
                                       "::run_paths"};
  const double thread_share = std::min(cum["main"], cum["::worker"]);
  for (const auto& [name, percent] : cum) {
    if (percent >= thread_share) { EXPECT_EQ(roots.count(name), 1u) << name << "\n" << top.output; }
    if (is_lazy_binding(name)) { EXPECT_LE(percent, 1.0) << name << "\n" << top.output; }
  }
  EXPECT_GT(cum["::format_lines"], 1.0) << top.output;
  EXPECT_LE(cum["__vfprintf_internal"], cum["::format_lines"]) << top.output;
  fs::remove_all(dir);
}

// Whether the function or the module of `location` holds `part`.
bool names(const raw_location& location, const std::string& part) {
  return location.function.find(part) != std::string::npos || location.module.find(part) != std::string::npos;
}

// Runs late_code_probe with `args`, sampled at 1 kHz, and expects more than 200 samples
// with a frame `through` names, at least 95% of them with a frame `reaching` names and
// ending at the thread's start (`_start` or `clone3`), whole.
void expect_stacks_through_to(const std::string& args, const std::string& through, const std::string& reaching) {
  const fs::path dir = fs::temp_directory_path() / ("perf_late_code_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "profile.pb.gz").string();
  const probe_result run =
      perf::testing::run_probe_program(PERF_LATE_CODE_PROBE, "PERF_SAMPLE_HZ=1000 PERF_PROFILE=" + path, args);
  ASSERT_EQ(run.status, 0) << run.output;
  const probe_result raw = perf::testing::go_tool_pprof("-raw " + path, dir);
  ASSERT_EQ(raw.status, 0) << raw.output;
  const raw_profile profile = parse_raw(raw.output);
  uint64_t samples = 0, whole = 0;
  std::string examples;
  for (const auto& [count, ids] : profile.samples) {
    bool in = false, reached = false;
    std::string stack;
    for (int id : ids) {
      const raw_location& frame = profile.locations.at(id);
      in |= names(frame, through);
      reached |= names(frame, reaching);
      stack += frame.function + " <- ";
    }
    if (!in) continue;
    samples += count;
    const std::string& root = profile.locations.at(ids.back()).function;
    if (reached && (root == "_start" || root == "clone3" || root == "clone")) whole += count;
    else if (examples.size() < 3000) examples += stack + "\n";
  }
  std::printf("%llu samples through %s, %llu of them reach %s and the thread's start\n",
              static_cast<unsigned long long>(samples), through.c_str(), static_cast<unsigned long long>(whole),
              reaching.c_str());
  ASSERT_GT(samples, 200u);
  EXPECT_GE(static_cast<double>(whole), 0.95 * static_cast<double>(samples)) << examples;
  fs::remove_all(dir);
}

// A module loaded after start-up (dlopen), without frame pointers, calling back into
// the program's measured code: its frames are walked through, from the program's code
// under it and from its own, up to main. Before, its rules were never derived (only the
// modules loaded at start-up were noted): a stack ended at its first frame in the
// plugin with [truncated].
TEST(LibraryPaths, AStackThroughAPluginLoadedAfterStartUpReachesMain) {
  expect_stacks_through_to(std::string("plugin ") + PERF_LATE_PLUGIN + " 0.5", "late_plugin", "main");
}

// A thread started before sampling (re)starts is armed from another thread, found in
// /proc/self/task: it never read its stack's bounds, and gets them from the mapping
// that holds its stack pointer at its first sample. Before, its every stack was its
// leaf and [truncated].
TEST(LibraryPaths, AThreadFoundInProcHasStacksReachingItsStartRoutine) {
  expect_stacks_through_to("early-thread 0.5", "early_inner", "early_thread_start");
}

#endif  // !defined(__SANITIZE_THREAD__)

// Loaded, called and unloaded 200 times while every thread is sampled at 1 kHz: no
// walk reads the code or unwind tables of a module dlclose is unmapping (under TSan
// too, where the samples arrive late).
TEST(LibraryPaths, APluginLoadedAndUnloadedWhileSampledLeavesTheProgramRunning) {
  const perf::testing::probe_result run = perf::testing::run_probe_program(
      PERF_LATE_CODE_PROBE, "PERF_SAMPLE_HZ=1000", std::string("plugin ") + PERF_LATE_PLUGIN + " 0.1");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("plugin done"), std::string::npos) << run.output;
}

// Samples at 10 kHz and every sampled allocation walked through a plugin's frames,
// while the code under them searches the loader's list (dl_iterate_phdr, as libgcc
// does for every frame an exception unwinds): a walk searching the list from a handler
// that interrupted a search taking or releasing its recursive lock would wait on its
// own thread for ever (heap_sample_bench hung so, its allocations' walks searching the
// list for the plugin's frames). The program ends.
TEST(LibraryPaths, WalksThroughAPluginNeverWaitOnTheLoadersLockTheirThreadHolds) {
  const perf::testing::probe_result run = perf::testing::run_probe_program(
      std::string("timeout 60 ") + PERF_LATE_CODE_PROBE, "PERF_SAMPLE_HZ=10000 PERF_HEAP_SAMPLE=64",
      std::string("searching-plugin ") + PERF_LATE_PLUGIN + " 2");
  EXPECT_EQ(run.status, 0) << run.output;
  EXPECT_NE(run.output.find("searching done"), std::string::npos) << run.output;
}

}  // namespace
