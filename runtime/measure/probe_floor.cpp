// The probe's floor kept between processes: a small text file, one line per key.
#include "measure/probe_floor.hpp"

#include <sys/stat.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <deque>
#include <fstream>
#include <sstream>

#include "core/cpu_model.hpp"
#include "core/output_file.hpp"

namespace perf::runtime {
namespace {

// FNV-1a of `size` bytes.
uint64_t fnv1a(const void* data, size_t size) {
  uint64_t hash = 0xcbf29ce484222325u;
  for (size_t i = 0; i < size; ++i) hash = (hash ^ static_cast<const unsigned char*>(data)[i]) * 0x100000001b3u;
  return hash;
}

// Makes `dir` and its missing parents (0755, as mkdir -p).
bool make_directories(const std::string& dir) {
  for (size_t slash = dir.find('/', 1);; slash = dir.find('/', slash + 1)) {
    const std::string part = dir.substr(0, slash);
    if (mkdir(part.c_str(), 0755) != 0 && errno != EEXIST) return false;
    if (slash == std::string::npos) return true;
  }
}

}  // namespace

probe_floor_config parse_probe_floor_config(const std::function<const char*(const char*)>& getenv_fn) {
  probe_floor_config result;
  const auto set = [&](const char* name) {
    const char* value = getenv_fn(name);
    return value != nullptr && *value != '\0' ? value : nullptr;
  };
  if (const char* value = set("PERF_PROBE_FLOOR")) {
    if (std::string(value) != "off") {
      result.path = value;
      result.named = true;
    }
  } else if (const char* cache = set("XDG_CACHE_HOME")) {
    result.path = std::string(cache) + "/perf-instrument/probe-floor";
  } else if (const char* home = set("HOME")) {
    result.path = std::string(home) + "/.cache/perf-instrument/probe-floor";
  }
  return result;
}

std::string probe_floor_key(detail::clock_source clock, bool ticks, const void* code, size_t code_bytes) {
  const cpu_model cpu = this_cpu_model();
  std::string name = cpu.name;
  for (char& c : name)
    if (c == ' ' || c == '\t' || c == '/') c = '_';
  return fmt::format("{}/{}/{}/{}/clock{}/{}/{:016x}", name, cpu.family, cpu.model, cpu.stepping,
                     static_cast<int>(clock), ticks ? "ticks" : "no-ticks", fnv1a(code, code_bytes));
}

namespace {

// A probe_cost's five figures, as a line holds them.
std::istream& operator>>(std::istream& in, probe_cost& c) {
  return in >> c.outside >> c.inside >> c.empty_call >> c.untimed >> c.inside_sampled;
}

std::string figures(const probe_cost& c) {
  return fmt::format("{} {} {} {} {}", c.outside, c.inside, c.empty_call, c.untimed, c.inside_sampled);
}

bool plausible(const probe_cost& c) { return c.outside > 0 && c.inside >= 0 && c.inside <= c.outside; }

}  // namespace

std::optional<kept_floor> read_probe_floor(const std::string& path, const std::string& key) {
  std::ifstream file(path);
  for (std::string line; std::getline(file, line);) {
    std::istringstream fields(line);
    std::string line_key;
    kept_floor k;
    if (!(fields >> line_key >> k.floor) || line_key != key || !plausible(k.floor)) continue;
    // The count above it and their lowest figure (a line written before they were kept has neither).
    if (!(fields >> k.above >> k.lowest_above) || (k.above != 0 && !plausible(k.lowest_above))) k.above = 0;
    return k;
  }
  return std::nullopt;
}

std::string write_probe_floor(const std::string& path, const std::string& key, const kept_floor& kept) {
  // The other keys' lines, the newest (last) most_kept_lines - 1 of them: each build of
  // the runtime has a key of its own, and old builds' floors are never read again.
  constexpr size_t most_kept_lines = 32;
  std::deque<std::string> others;
  {
    std::ifstream file(path);
    for (std::string line; std::getline(file, line);) {
      if (line.compare(0, key.size() + 1, key + ' ') == 0 || line.empty()) continue;
      others.push_back(line);
      if (others.size() == most_kept_lines) others.pop_front();
    }
  }
  std::string lines;
  for (const std::string& line : others) lines += line + '\n';
  lines += fmt::format("{} {}", key, figures(kept.floor));
  if (kept.above != 0) lines += fmt::format(" {} {}", kept.above, figures(kept.lowest_above));
  lines += '\n';
  const size_t slash = path.rfind('/');
  if (slash != std::string::npos && slash != 0 && !make_directories(path.substr(0, slash)))
    return fmt::format("cannot make the directory of '{}': {}", path, std::strerror(errno));
  const std::string problem = write_file(path, [&](int fd) { return write_all(fd, lines.data(), lines.size()); });
  return problem.empty() ? problem : fmt::format("cannot write '{}': {}", path, problem);
}

floor_choice choose_floor(const std::optional<kept_floor>& known, const settled_probe_cost& settled) {
  if (settled.new_floor) return {settled.cost, kept_floor{settled.cost}};
  if (!known) return {settled.cost, std::nullopt};  // not confirmed: not kept
  if (!settled.above) {
    if (known->above == 0 || settled.undecided) return {known->floor, std::nullopt};
    return {known->floor, kept_floor{known->floor}};  // agreed with it: the count starts again
  }
  kept_floor next = *known;
  const probe_cost& figure = *settled.above;
  const bool agrees = next.above != 0 && std::fabs(figure.outside - next.lowest_above.outside) <=
                                             raise_agreement * std::min(figure.outside, next.lowest_above.outside);
  if (!agrees) {  // the first above it, or one far from the others' level: the count starts again from it
    next.above = 0;
    next.lowest_above = figure;
  } else if (figure.outside < next.lowest_above.outside) {
    next.lowest_above = figure;
  }
  if (++next.above < processes_to_raise) return {known->floor, next};
  return {next.lowest_above, kept_floor{next.lowest_above}};
}

}  // namespace perf::runtime
