// The probe's floor on this machine, kept between processes (PERF_PROBE_FLOOR): the
// lowest probe cost a process confirmed, which the next one takes when its own
// measurement agrees with it or comes out higher (a busy spell of the host), so that
// every process of a machine states and subtracts the same figure
// (docs/performance.md, "Calibration").
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

// The floor kept under `key` in the file at `path`, if any (a missing or unreadable
// file, or a malformed line, is no floor).
std::optional<probe_cost> read_probe_floor(const std::string& path, const std::string& key);

// Keeps `floor` under `key` in the file at `path` (created with its directory; the
// newest 31 other keys' floors kept), written whole (temp file + rename); returns the
// problem, naming the file, empty on success.
std::string write_probe_floor(const std::string& path, const std::string& key, const probe_cost& floor);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_MEASURE_PROBE_FLOOR_HPP
