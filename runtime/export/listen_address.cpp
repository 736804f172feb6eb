#include "export/listen_address.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <utility>

namespace perf::runtime {
namespace {

std::optional<uint16_t> parse_port(std::string_view text) {
  unsigned value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value > 65535) return std::nullopt;
  return static_cast<uint16_t>(value);
}

std::string quoted(std::string_view text) { return "PERF_LISTEN='" + std::string(text) + "'"; }

// Whether a process listens on the Unix socket at `un`: only a connect() that is
// refused says it is stale (a full backlog, EAGAIN, says it lives).
bool someone_listens(const sockaddr_un& un) {
  const int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (probe < 0) return true;  // cannot tell: leave it alone
  const bool refused = connect(probe, reinterpret_cast<const sockaddr*>(&un), sizeof un) != 0 && errno == ECONNREFUSED;
  close(probe);
  return !refused;
}

}  // namespace

value_or_problem<listen_address> parse_listen_address(std::string_view text) {
  value_or_problem<listen_address> result;
  listen_address& address = result.value;
  if (text.find('/') != std::string_view::npos) {
    address.kind = listen_address::family::unix_socket;
    address.path = text;
    if (address.path.size() >= sizeof(sockaddr_un{}.sun_path))
      result.problem = quoted(text) + ": a Unix socket path has at most 107 bytes";
    return result;
  }
  std::string_view host, port = text;
  if (!text.empty() && text.front() == '[') {
    const size_t close = text.find("]:");
    if (close == std::string_view::npos) {
      result.problem = quoted(text) + " is not [IPV6]:PORT";
      return result;
    }
    address.kind = listen_address::family::inet6;
    host = text.substr(1, close - 1);
    port = text.substr(close + 2);
  } else if (const size_t colon = text.rfind(':'); colon != std::string_view::npos) {
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
  }
  const std::optional<uint16_t> number = parse_port(port);
  if (!number) {
    result.problem = quoted(text) + ": '" + std::string(port) + "' is not a port from 0 to 65535";
    return result;
  }
  address.port = *number;
  address.host = host.empty() || host == "localhost" ? "127.0.0.1" : std::string(host);
  if (address.kind == listen_address::family::inet6) {
    in6_addr a6;
    if (inet_pton(AF_INET6, address.host.c_str(), &a6) != 1) {
      result.problem = quoted(text) + ": '" + address.host + "' is not an IPv6 address";
      return result;
    }
    address.loopback = IN6_IS_ADDR_LOOPBACK(&a6);
  } else {
    in_addr a4;
    if (inet_pton(AF_INET, address.host.c_str(), &a4) != 1) {
      result.problem = quoted(text) + ": '" + address.host +
                       "' is not an IPv4 address (names other than localhost are not looked up)";
      return result;
    }
    address.loopback = (ntohl(a4.s_addr) >> 24) == 127;
  }
  return result;
}

std::string describe(const listen_address& address) {
  switch (address.kind) {
    case listen_address::family::unix_socket: return address.path;
    case listen_address::family::inet6: return "[" + address.host + "]:" + std::to_string(address.port);
    case listen_address::family::inet4: break;
  }
  return address.host + ":" + std::to_string(address.port);
}

value_or_problem<int> open_listen_socket(listen_address& address) {
  sockaddr_storage storage{};
  socklen_t length = 0;
  int domain = AF_INET;
  if (address.kind == listen_address::family::unix_socket) {
    domain = AF_UNIX;
    auto* un = reinterpret_cast<sockaddr_un*>(&storage);
    un->sun_family = AF_UNIX;
    std::memcpy(un->sun_path, address.path.c_str(), address.path.size() + 1);
    length = sizeof(sockaddr_un);
    struct stat existing;
    if (lstat(address.path.c_str(), &existing) == 0 && S_ISSOCK(existing.st_mode)) {
      if (someone_listens(*un))
        return {-1, "cannot listen on " + address.path + ": another process is listening there"};
      unlink(address.path.c_str());
    }
  } else if (address.kind == listen_address::family::inet6) {
    domain = AF_INET6;
    auto* in6 = reinterpret_cast<sockaddr_in6*>(&storage);
    in6->sin6_family = AF_INET6;
    in6->sin6_port = htons(address.port);
    inet_pton(AF_INET6, address.host.c_str(), &in6->sin6_addr);
    length = sizeof(sockaddr_in6);
  } else {
    auto* in4 = reinterpret_cast<sockaddr_in*>(&storage);
    in4->sin_family = AF_INET;
    in4->sin_port = htons(address.port);
    inet_pton(AF_INET, address.host.c_str(), &in4->sin_addr);
    length = sizeof(sockaddr_in);
  }
  const int fd = socket(domain, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return {-1, std::string("socket: ") + std::strerror(errno)};
  const int on = 1;
  if (domain != AF_UNIX) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  if (domain == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on);
  if (bind(fd, reinterpret_cast<sockaddr*>(&storage), length) != 0 || listen(fd, SOMAXCONN) != 0) {
    std::string problem = "cannot listen on " + describe(address) + ": " + std::strerror(errno);
    close(fd);
    return {-1, std::move(problem)};
  }
  struct stat created;
  if (domain == AF_UNIX && stat(address.path.c_str(), &created) == 0)
    address.socket_file = {created.st_dev, created.st_ino};
  if (domain != AF_UNIX && getsockname(fd, reinterpret_cast<sockaddr*>(&storage), &length) == 0)
    address.port = ntohs(domain == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&storage)->sin6_port
                                            : reinterpret_cast<sockaddr_in*>(&storage)->sin_port);
  return {fd, {}};
}

void remove_socket_file(const listen_address& address) {
  struct stat now;
  if (address.kind != listen_address::family::unix_socket || !address.socket_file ||
      lstat(address.path.c_str(), &now) != 0 || !S_ISSOCK(now.st_mode) ||
      std::make_pair(now.st_dev, now.st_ino) != *address.socket_file)
    return;
  unlink(address.path.c_str());
}

}  // namespace perf::runtime
