#include "sampler/profile.hpp"

#include "core/sites.hpp"
#include "core/stack_unwind.hpp"
#include "sampler/allocation_function.hpp"
#include "sampler/code_owner.hpp"
#include "sampler/exported_symbols.hpp"
#include "sampler/function_name.hpp"
#include "sampler/linker_stubs.hpp"
#include "sampler/measured_function.hpp"

#include <backtrace.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <utility>

#include <fmt/format.h>

namespace perf::runtime {
namespace {

void ignore_error(void*, const char*, int) {}

// libbacktrace reads the executable's and every loaded library's debug information
// once per state and cannot free a state: one is kept, and replaced only when the
// set of loaded modules has changed since it was made. So are the addresses
// symbolized with it, so that repeated snapshots (a scraper's) symbolize only new ones.
struct symbolizer {
  std::mutex mutex;
  backtrace_state* state = nullptr;
  size_t modules_seen = 0;
  std::map<std::pair<uintptr_t, bool>, profile_location> known;      // (address, is a return address)
  std::map<std::string, std::vector<link_time_range>> linker_stubs;  // by module path, read when first needed
  std::map<std::string, std::vector<exported_function>> exported;    // by module path, read when first needed
};

// The symbolizer has answered a first question: libbacktrace has read every module's
// symbols and debug information. Atomic.
bool symbols_read = false;

symbolizer& shared_symbolizer() {
  static symbolizer* const shared = new symbolizer;
  return *shared;
}

// With the symbolizer's mutex held: a fresh state when the modules have changed.
void refresh(symbolizer& symbols, size_t module_count) {
  if (symbols.state != nullptr && symbols.modules_seen == module_count) return;
  symbols.state = backtrace_create_state(nullptr, /*threaded=*/1, ignore_error, nullptr);
  symbols.modules_seen = module_count;
  symbols.known.clear();
  symbols.linker_stubs.clear();
}

// With the symbolizer's mutex held: whether `pc` is in one of `module`'s linker stubs.
bool in_linker_stub(symbolizer& symbols, const loaded_module& module, uintptr_t pc) {
  auto found = symbols.linker_stubs.find(module.path);
  if (found == symbols.linker_stubs.end())
    found = symbols.linker_stubs.emplace(module.path, linker_stub_ranges(module.path)).first;
  for (const link_time_range& stub : found->second)
    if (pc - module.bias >= stub.start && pc - module.bias < stub.limit) return true;
  return false;
}

// " (after NAME)": the exported function laid out before `pc` in `module`, its name
// demangled without its parameters; empty when none is.
std::string exported_neighbour(symbolizer& symbols, const loaded_module& module, uintptr_t pc) {
  auto found = symbols.exported.find(module.path);
  if (found == symbols.exported.end())
    found = symbols.exported.emplace(module.path, exported_functions(module.path)).first;
  const exported_function* before = exported_function_before(found->second, pc - module.bias);
  if (before == nullptr) return "";
  const std::string name = function_name(before->name.c_str());
  return " (after " + name.substr(0, name.find('(')) + ")";
}

struct lookup {
  std::vector<source_frame>* frames;
};

// The frames keep their names as found (mangled) until they are classified.
int add_line(void* data, uintptr_t, const char* file, int line, const char* function) {
  if (function == nullptr) return 0;
  source_frame frame;
  frame.function = function;
  frame.file = file != nullptr ? file : "";
  frame.line = line > 0 ? static_cast<unsigned>(line) : 0;
  static_cast<lookup*>(data)->frames->push_back(std::move(frame));
  return 0;
}

void add_symbol(void* data, uintptr_t, const char* symbol, uintptr_t, uintptr_t) {
  if (symbol == nullptr) return;
  source_frame frame;
  frame.function = symbol;
  static_cast<lookup*>(data)->frames->push_back(std::move(frame));
}

std::string base_name(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// With the symbolizer's mutex held.
profile_location symbolize(symbolizer& symbols, const std::vector<loaded_module>& modules, uintptr_t address,
                           bool return_address) {
  backtrace_state* const state = symbols.state;
  profile_location location;
  location.address = address;
  // A return address is the instruction after the call: the call's line is one byte back.
  const uintptr_t pc = return_address ? address - 1 : address;
  const loaded_module* module = module_at(modules, pc);
  if (module != nullptr) location.module = static_cast<int>(module - modules.data());
  lookup found{&location.frames};
  if (state != nullptr) {
    backtrace_pcinfo(state, pc, add_line, ignore_error, &found);
    // The debug information names a function without its scope or parameters where
    // it has no linkage name (internal linkage); the symbol table names it fully.
    // Its inlined callees keep the names the debug information gives.
    std::vector<source_frame> symbol;
    lookup by_symbol{&symbol};
    backtrace_syminfo(state, pc, add_symbol, ignore_error, &by_symbol);
    if (location.frames.empty()) location.frames = std::move(symbol);
    else if (!symbol.empty()) location.frames.back().function = std::move(symbol.front().function);
    __atomic_store_n(&symbols_read, true, __ATOMIC_RELEASE);
  }
  const std::string module_path = module != nullptr ? module->path : "";
  for (source_frame& frame : location.frames) {
    frame.owner = owner_of(frame.function, frame.file, module_path);
    frame.function = function_name(frame.function.c_str());
  }
  if (location.frames.empty()) {
    source_frame frame;
    // A sample in a linker stub is in a call to a library: its caller gets it.
    const bool stub = module != nullptr && !return_address && in_linker_stub(symbols, *module, pc);
    frame.function = module == nullptr ? fmt::format("{:#x}", pc)
                     : stub
                         ? fmt::format("{}+{:#x} (PLT)", base_name(module->path), pc - module->bias)
                         : fmt::format("{}+{:#x}{}{}", base_name(module->path), pc - module->bias,
                                       exported_neighbour(symbols, *module, pc), module->unloaded ? " (unloaded)" : "");
    frame.owner = stub ? code_owner::library : owner_of_unnamed(module_path, return_address);
    location.frames.push_back(std::move(frame));
  }
  return location;
}

// With the symbolizer's mutex held: the location of `key` (address, is a return
// address), symbolized on first use.
const profile_location& known_location(symbolizer& symbols, const std::vector<loaded_module>& modules,
                                       std::pair<uintptr_t, bool> key) {
  auto known = symbols.known.find(key);
  if (known == symbols.known.end())
    known = symbols.known.emplace(key, symbolize(symbols, modules, key.first, key.second)).first;
  return known->second;
}

// With the symbolizer's mutex held: every registered site by the function it measures.
measured_function_sites index_measured_functions(symbolizer& symbols, const std::vector<loaded_module>& modules) {
  measured_function_sites index;
  const unsigned sites = site_count();
  for (unsigned id = 1; id < sites && id < max_sites - 1; ++id)
    if (const uintptr_t code = site_code(id); code != 0)
      add_measured_site(index, id, known_location(symbols, modules, {code, true}).frames);
  return index;
}

// The innermost program frame of a stack of `locations`, innermost first; null if none.
const source_frame* innermost_program_frame(const std::vector<profile_location>& all,
                                            const std::vector<uint32_t>& locations) {
  for (uint32_t index : locations)
    if (const source_frame* frame = innermost_program_frame(all[index].frames)) return frame;
  return nullptr;
}

}  // namespace

stack_counts count_stacks(const sample_table& table) {
  stack_counts counts;
  table.for_each([&](const stack_view& view) {
    counts[{view.tid, view.site, std::vector<uintptr_t>(view.frames, view.frames + view.depth)}] += view.count;
  });
  return counts;
}

profile collect_profile(const sample_table& table, unsigned hz, sample_clock clock, const stack_counts* since) {
  profile result;
  result.hz = hz;
  result.clock = clock;
  result.dropped = table.dropped();
  result.modules = loaded_modules();
  stack_counts already_counted = since != nullptr ? *since : stack_counts{};
  symbolizer& symbols = shared_symbolizer();
  const std::lock_guard<std::mutex> lock(symbols.mutex);
  // The symbolizer (libbacktrace reads every module's symbol tables and debug
  // information, tens of MB, on its first question) and the index of the measured
  // functions are made on first need: a process that took no sample asks nothing.
  bool symbolizing = false;
  std::optional<measured_function_sites> measured;

  // (address, is a return address) -> location index. The first frame of a stack is
  // the interrupted instruction itself, the others return addresses.
  std::map<std::pair<uintptr_t, bool>, uint32_t> location_index;
  std::map<std::tuple<uint32_t, uint32_t, std::vector<uint32_t>, bool>, size_t> stack_index;
  table.for_each([&](stack_view view) {
    if (!already_counted.empty()) {
      const auto before =
          already_counted.find({view.tid, view.site, std::vector<uintptr_t>(view.frames, view.frames + view.depth)});
      if (before != already_counted.end()) {
        const uint64_t taken = std::min(before->second, view.count);
        view.count -= taken;
        before->second -= taken;
      }
      if (view.count == 0) return;
    }
    std::vector<uint32_t> locations;
    bool cut = false;  // the unwinder ended the stack with a truncation (core/stack_unwind.hpp)
    for (uint32_t i = 0; i < view.depth; ++i) {
      if (view.frames[i] == truncated_frame) {
        cut = true;
        continue;
      }
      const auto key = std::make_pair(view.frames[i], i != 0);
      auto [at, inserted] = location_index.emplace(key, static_cast<uint32_t>(result.locations.size()));
      if (inserted) {
        if (!std::exchange(symbolizing, true)) refresh(symbols, result.modules.size());
        result.locations.push_back(known_location(symbols, result.modules, key));
      }
      locations.push_back(at->second);
    }
    result.total += view.count;
    const source_frame* sampled = innermost_program_frame(result.locations, locations);
    if (sampled != nullptr && !measured) measured = index_measured_functions(symbols, result.modules);
    const uint32_t site = sampled == nullptr ? view.site : charged_site(*measured, view.site, sampled);
    const bool truncated = cut || view.depth == table.depth();
    auto [at, inserted] =
        stack_index.emplace(std::make_tuple(view.tid, site, locations, truncated), result.stacks.size());
    if (!inserted) {
      result.stacks[at->second].count += view.count;
      return;
    }
    profile_stack stack;
    stack.tid = view.tid;
    stack.site = site;
    stack.count = view.count;
    stack.truncated = truncated;
    stack.locations = std::move(locations);
    result.stacks.push_back(std::move(stack));
  });
  return result;
}

std::vector<source_frame> symbolize_return_address(uintptr_t address) {
  const std::vector<loaded_module> modules = loaded_modules();
  symbolizer& symbols = shared_symbolizer();
  const std::lock_guard<std::mutex> lock(symbols.mutex);
  refresh(symbols, modules.size());
  return known_location(symbols, modules, {address, true}).frames;
}

namespace {

// symbolize_return_address_stacks(), the first address of each stack the interrupted
// instruction where `interrupted`, and truncation marks left out.
symbolized_stacks symbolize_stacks(const std::vector<std::vector<uintptr_t>>& stacks, bool interrupted) {
  symbolized_stacks result;
  result.modules = loaded_modules();
  symbolizer& symbols = shared_symbolizer();
  const std::lock_guard<std::mutex> lock(symbols.mutex);
  refresh(symbols, result.modules.size());
  std::map<std::pair<uintptr_t, bool>, uint32_t> location_index;
  for (const std::vector<uintptr_t>& stack : stacks) {
    std::vector<uint32_t>& locations = result.stacks.emplace_back();
    for (size_t i = 0; i < stack.size(); ++i) {
      if (interrupted && stack[i] == truncated_frame) continue;
      const auto key = std::make_pair(stack[i], !interrupted || i != 0);
      auto [at, inserted] = location_index.emplace(key, static_cast<uint32_t>(result.locations.size()));
      if (inserted) result.locations.push_back(known_location(symbols, result.modules, key));
      locations.push_back(at->second);
    }
  }
  return result;
}

}  // namespace

symbolized_stacks symbolize_return_address_stacks(const std::vector<std::vector<uintptr_t>>& stacks) {
  return symbolize_stacks(stacks, false);
}

std::vector<std::vector<std::string>> sampled_stack_functions(const std::vector<std::vector<uintptr_t>>& stacks) {
  const symbolized_stacks symbolized = symbolize_stacks(stacks, true);
  std::vector<std::vector<std::string>> functions(stacks.size());
  for (size_t s = 0; s < stacks.size(); ++s)
    for (const uint32_t location : symbolized.stacks[s])
      for (const source_frame& frame : symbolized.locations[location].frames) functions[s].push_back(frame.function);
  return functions;
}

bool symbolizer_ready() noexcept { return __atomic_load_n(&symbols_read, __ATOMIC_ACQUIRE); }

const source_frame& most_interesting_frame(const profile& p, const profile_stack& stack) {
  if (const source_frame* frame = innermost_program_frame(p.locations, stack.locations)) return *frame;
  return p.locations[stack.locations.front()].frames.front();
}

bool taken_in_runtime(const profile& p, const profile_stack& stack) {
  // The innermost frame that is not a library's: the probes', the runtime's own work
  // (its symbolizer's libbacktrace and zlib, its report writing) or the program's. A
  // library's code called by an interposed allocation function is the program's call.
  for (size_t i = 0; i < stack.locations.size(); ++i)
    for (const source_frame& frame : p.locations[stack.locations[i]].frames)
      if (frame.owner != code_owner::library)
        return frame.owner == code_owner::runtime && (i == 0 || !is_allocation_function(frame.function));
  return false;
}

}  // namespace perf::runtime
