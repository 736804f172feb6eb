#include "export/listen_config.hpp"

#include <utility>

#include "core/settled_config.hpp"
#include "core/startup.hpp"

namespace perf::runtime {
namespace {

// Its warnings at start-up, with core's, before the server starts.
PERF_RUNTIME_ON_START(settle_listen_config) { current_listen_config(); }

}  // namespace

listen_config parse_listen_config(const std::function<const char*(const char*)>& getenv_fn) {
  listen_config result;
  const char* value = getenv_fn("PERF_LISTEN");
  if (value == nullptr || *value == '\0') return result;
  value_or_problem<listen_address> parsed = parse_listen_address(value);
  if (!parsed.problem.empty()) {
    result.warnings.push_back(parsed.problem + "; the live endpoint is off");
    return result;
  }
  if (!parsed.value.loopback)
    result.warnings.push_back("PERF_LISTEN='" + std::string(value) +
                              "' serves the statistics and profiles beyond this machine, without authentication");
  result.address = std::move(parsed.value);
  return result;
}

const listen_config& current_listen_config() { return settled_config<listen_config, parse_listen_config>(); }

}  // namespace perf::runtime
