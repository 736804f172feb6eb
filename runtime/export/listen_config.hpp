// The live endpoint's PERF_* variable: PERF_LISTEN, where it listens.
#ifndef PERF_RUNTIME_EXPORT_LISTEN_CONFIG_HPP
#define PERF_RUNTIME_EXPORT_LISTEN_CONFIG_HPP

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "export/listen_address.hpp"

namespace perf::runtime {

struct listen_config {
  // PERF_LISTEN's address, port 0 still meaning any free one; none: the endpoint is
  // off (PERF_LISTEN unset, empty, or not an address).
  std::optional<listen_address> address;
  // One line per thing to say about PERF_LISTEN, naming it: why the endpoint is off,
  // or that it serves beyond this machine.
  std::vector<std::string> warnings;
};

// Reads PERF_LISTEN through `getenv_fn` (a null result means unset).
listen_config parse_listen_config(const std::function<const char*(const char*)>& getenv_fn);

// Parsed on first use (the endpoint's start-up makes that first use), its warnings
// on stderr once, one line each. Thread-safe.
const listen_config& current_listen_config();

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_EXPORT_LISTEN_CONFIG_HPP
