// The probe's floor on this machine, kept between processes (PERF_PROBE_FLOOR): the
// lowest probe cost a process confirmed, which the next one takes when its own
// measurement agrees with it or comes out higher (a busy spell of the host), so that
// every process of a machine states and subtracts the same figure; raised only when
// processes_to_raise processes in a row each settled their own figure above it (a
// machine whose probe now costs more: the VM moved to another host, a microcode
// update), to the lowest of theirs (docs/performance.md, "Calibration").
#ifndef PERF_RUNTIME_MEASURE_PROBE_FLOOR_HPP
#define PERF_RUNTIME_MEASURE_PROBE_FLOOR_HPP

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "measure/probe_cost.hpp"

namespace perf::runtime {

struct probe_floor_config {
  // The file that keeps the floors: PERF_PROBE_FLOOR, else perf-instrument/probe-floor
  // under $XDG_CACHE_HOME or $HOME/.cache; empty when off (PERF_PROBE_FLOOR=off, or
  // neither variable set).
  std::string path;
  // Whether PERF_PROBE_FLOOR named the file: a floor that cannot be kept there is
  // warned of (in the default place, it is not: each process then settles its own).
  bool named = false;
  std::vector<std::string> warnings;
};

// Reads PERF_PROBE_FLOOR, XDG_CACHE_HOME and HOME through `getenv_fn` (a null
// result means unset).
probe_floor_config parse_probe_floor_config(const std::function<const char*(const char*)>& getenv_fn);

// What a floor is kept under: the CPU (this_cpu_model: name, family, model, stepping),
// the clock, whether the probe logs tick events, and a hash of the probe's own
// machine code (`code`, `code_bytes` long), so that another machine, clock or build
// of the runtime never takes this one's.
std::string probe_floor_key(detail::clock_source clock, bool ticks, const void* code, size_t code_bytes);

// What the file keeps under a key: the floor, and how many processes in a row since it
// was last confirmed settled their own figure above it, with the lowest of those.
struct kept_floor {
  probe_cost floor{};
  unsigned above = 0;
  probe_cost lowest_above{};  // when `above` is not 0
};

// Processes in a row, each above the kept floor and their figures within
// raise_agreement of each other, that raise it: a busy spell of the host lasts
// milliseconds and costs what it happens to (a spell's figures spread by half), where a
// machine whose probe costs more for good gives the same figure every time (26.0-27.6
// ns in the six processes of docs/performance.md's "A floor that no longer holds").
constexpr unsigned processes_to_raise = 5;
constexpr double raise_agreement = 0.10;

// The floor kept under `key` in the file at `path`, if any (a missing or unreadable
// file, or a malformed line, is no floor).
std::optional<kept_floor> read_probe_floor(const std::string& path, const std::string& key);

// Keeps `kept` under `key` in the file at `path` (created with its directory; the
// newest 31 other keys' floors kept), written whole (temp file + rename); returns the
// problem, naming the file, empty on success.
[[nodiscard]] std::string write_probe_floor(const std::string& path, const std::string& key, const kept_floor& kept);

// What a process whose calibration `settled` with the floor `known` (none: no file or
// no line for its key) uses, and what it leaves in the file for the next one.
struct floor_choice {
  probe_cost use;
  std::optional<kept_floor> write;  // none: the file stays as it is
};

// A confirmed new floor is used and kept. Otherwise the known floor is used, and the
// count of processes above it moves: one more (settled.above, within raise_agreement
// of the lowest of those before it; else the count starts again from it), back to none
// (the process agreed with the floor), or not at all (settled.undecided); the
// processes_to_raise-th in a row above it raises it to the lowest of their own
// figures, which that process uses.
floor_choice choose_floor(const std::optional<kept_floor>& known, const settled_probe_cost& settled);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_MEASURE_PROBE_FLOOR_HPP
