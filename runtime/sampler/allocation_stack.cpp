// describe_stack(): the recorded stacks of the gtest allocation budgets, symbolized
// with the sampler's symbolizer.
#include "perf/detail/allocation_stack.hpp"

#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "sampler/allocation_function.hpp"
#include "sampler/code_owner.hpp"
#include "sampler/profile.hpp"
#include "sampler/sampler.hpp"

namespace perf::alloc::detail {
namespace {

// Whether `function` is an allocation function the program calls (perf's, the C
// library's or a sanitizer's interceptor), or perf's code inside one (its interposer:
// perf's malloc jumps to the sampling code, leaving no frame of its own): the stack of
// interest starts at its caller.
bool allocation_function(std::string_view function) {
  constexpr std::string_view interceptor = "__interceptor_", interposer = "perf::alloc::interpose::";
  if (function.substr(0, interposer.size()) == interposer) return true;
  if (function.substr(0, interceptor.size()) == interceptor) function.remove_prefix(interceptor.size());
  if (function.substr(0, 12) == "operator new") return true;
  for (std::string_view name : {"malloc", "calloc", "realloc", "reallocarray", "aligned_alloc", "posix_memalign",
                                "memalign", "valloc", "pvalloc"})
    if (function == name) return true;
  return false;
}

// Whether a frame is the program's own code; GoogleTest's (namespace testing, after
// the return type of a template's instance), which runs every test, is not.
bool own_code(const runtime::source_frame& frame) {
  if (frame.owner != runtime::code_owner::program) return false;
  const std::string_view name = std::string_view(frame.function).substr(0, frame.function.find('('));
  return name.substr(0, 9) != "testing::" && name.find(" testing::") == std::string_view::npos;
}

}  // namespace

std::string describe_stack(const uintptr_t* frames, unsigned depth) {
  // A failing budget's message is the runtime's work (its symbolizer reads the debug
  // information: libbacktrace, zlib), not the test's.
  const runtime::sampling_pause paused;
  std::string text;
  for (const std::string& line : runtime::program_frame_lines(frames, depth)) text += "\n    " + line;
  return text;
}

}  // namespace perf::alloc::detail

namespace perf::runtime {

bool is_allocation_function(const std::string& function) { return alloc::detail::allocation_function(function); }

namespace {

// The symbolized frames of `frames` past the outermost allocation function.
std::vector<source_frame> frames_past_allocation(const uintptr_t* frames, unsigned depth) {
  std::vector<source_frame> stack;
  for (unsigned i = 0; i < depth; ++i)
    for (source_frame& frame : symbolize_return_address(frames[i])) stack.push_back(std::move(frame));
  size_t first = 0;
  for (size_t i = 0; i < stack.size(); ++i)
    if (alloc::detail::allocation_function(stack[i].function)) first = i + 1;
  stack.erase(stack.begin(), stack.begin() + static_cast<std::ptrdiff_t>(first));
  return stack;
}

}  // namespace

bool runtime_allocation(const uintptr_t* frames, unsigned depth) {
  for (const source_frame& frame : frames_past_allocation(frames, depth))
    if (frame.owner != code_owner::library) return frame.owner == code_owner::runtime;
  return false;
}

std::vector<std::string> program_frame_lines(const uintptr_t* frames, unsigned depth) {
  const std::vector<source_frame> stack = frames_past_allocation(frames, depth);
  std::vector<std::string> lines;
  bool seen_own = false;
  bool folded = false;  // the last line is "..."
  for (const source_frame& frame : stack) {
    if (!alloc::detail::own_code(frame)) {
      if (seen_own && !folded) lines.push_back("...");
      folded = true;
      continue;
    }
    seen_own = true;
    folded = false;
    lines.push_back("at " + frame.function);
    if (!frame.file.empty()) lines.back() += fmt::format(" ({}:{})", frame.file, frame.line);
    if (frame.function == "main") break;  // what runs before it is the C library's
  }
  return lines;
}

unsigned allocation_function_frames(const uintptr_t* frames, unsigned depth) {
  unsigned first = 0;
  for (unsigned i = 0; i < depth; ++i)
    for (const source_frame& frame : symbolize_return_address(frames[i]))
      if (alloc::detail::allocation_function(frame.function)) first = i + 1;
  return first;
}

}  // namespace perf::runtime
