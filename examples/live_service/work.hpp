// What the service does with one request: parse it, then checksum its payload.
#ifndef LIVE_SERVICE_WORK_HPP
#define LIVE_SERVICE_WORK_HPP

#include <cstdint>
#include <string>

namespace service {

struct request {
  uint64_t id = 0;
  std::string payload;
};

request parse_request(uint64_t id);
uint64_t checksum(const request& r);
uint64_t handle_request(uint64_t id);

}  // namespace service

#endif  // LIVE_SERVICE_WORK_HPP
