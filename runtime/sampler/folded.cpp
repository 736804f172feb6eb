// Folded stacks: the input format of flamegraph.pl and speedscope.
#include <map>

#include "sampler/profile_formats.hpp"

namespace perf::runtime {
namespace {

// A frame name must not contain the separators of the format.
std::string folded_name(const std::string& name) {
  std::string out = name;
  for (char& c : out)
    if (c == ';' || c == '\n') c = ':';
  return out;
}

}  // namespace

std::string format_folded(const profile& p) {
  std::map<std::string, uint64_t> lines;
  for (const profile_stack& stack : p.stacks) {
    std::string line = stack.truncated ? "[truncated]" : "";
    for (auto location = stack.locations.rbegin(); location != stack.locations.rend(); ++location) {
      const std::vector<source_frame>& frames = p.locations[*location].frames;
      for (auto frame = frames.rbegin(); frame != frames.rend(); ++frame) {
        if (!line.empty()) line += ';';
        line += folded_name(frame->function);
      }
    }
    lines[line] += stack.count;
  }
  std::string out;
  for (const auto& [line, count] : lines) out += line + ' ' + std::to_string(count) + '\n';
  return out;
}

}  // namespace perf::runtime
