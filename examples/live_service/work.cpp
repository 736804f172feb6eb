#include "work.hpp"

namespace service {

[[perf::measure]] request parse_request(uint64_t id) {
  request r;
  r.id = id;
  r.payload = "request " + std::to_string(id) + " " + std::string(64 + id % 64, 'x');
  return r;
}

// The hot spot: a few thousand rounds of mixing over the payload.
[[perf::measure]] uint64_t checksum(const request& r) {
  uint64_t h = 1469598103934665603ull ^ r.id;
  for (int round = 0; round < 200; ++round)
    for (const char c : r.payload) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return h;
}

[[perf::measure]] uint64_t handle_request(uint64_t id) { return checksum(parse_request(id)); }

}  // namespace service
