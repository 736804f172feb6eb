// PERF_LISTEN: where the live endpoint listens, and its socket.
#ifndef PERF_RUNTIME_EXPORT_LISTEN_ADDRESS_HPP
#define PERF_RUNTIME_EXPORT_LISTEN_ADDRESS_HPP

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "core/value_or_problem.hpp"

namespace perf::runtime {

struct listen_address {
  enum class family { inet4, inet6, unix_socket };
  family kind = family::inet4;
  std::string host;   // numeric: "127.0.0.1", "::1"; empty for a Unix socket
  uint16_t port = 0;  // 0: any free port
  std::string path;   // the Unix socket's
  bool loopback = true;
  // The socket file open_listen_socket made (device, inode), which
  // remove_socket_file removes: not one that another process put there since.
  std::optional<std::pair<dev_t, ino_t>> socket_file;
};

// PERF_LISTEN's value: "PORT" or ":PORT" (127.0.0.1), "IPV4:PORT", "localhost:PORT",
// "[IPV6]:PORT", or a path with a '/' (a Unix socket). Anything beyond the machine
// must be named by its address: there is no short form for it. The problem names
// PERF_LISTEN and its value when `text` is none of these.
value_or_problem<listen_address> parse_listen_address(std::string_view text);

// The address as a URL's authority ("127.0.0.1:9464", "[::1]:9464") or the socket's
// path.
std::string describe(const listen_address& address);

// A socket bound to `address` and listening, close-on-exec; the problem (and -1)
// when it cannot be. A Unix socket file at the path is replaced only when it is stale (a
// connect() to it is refused): a live one, another process's, is left alone and
// gives a problem, as does any other kind of file. `address.port` becomes the bound
// port; `address.socket_file` the Unix socket file made.
value_or_problem<int> open_listen_socket(listen_address& address);

// Removes the Unix socket file open_listen_socket made for `address`, if it is
// still there; nothing for other addresses.
void remove_socket_file(const listen_address& address);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_EXPORT_LISTEN_ADDRESS_HPP
