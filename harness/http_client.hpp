// A raw HTTP/1.1 client for the live endpoint's tests and bench: it sends exactly the bytes
// it is given (malformed ones included) and reads what comes back.
#ifndef PERF_HARNESS_HTTP_CLIENT_HPP
#define PERF_HARNESS_HTTP_CLIENT_HPP

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>

namespace perf::testing {

// Whether `raw` holds a whole response: its head, and a body as long as its
// Content-Length says, or chunked up to its last chunk.
inline bool complete_response(const std::string& raw) {
  const size_t end = raw.find("\r\n\r\n");
  if (end == std::string::npos) return false;
  const std::string head = raw.substr(0, end);
  if (head.find("\r\nTransfer-Encoding: chunked") != std::string::npos)
    return raw.size() >= end + 9 && raw.compare(raw.size() - 5, 5, "0\r\n\r\n") == 0;
  const size_t length = head.find("\r\nContent-Length: ");
  return length != std::string::npos && raw.size() - end - 4 >= std::strtoul(head.c_str() + length + 18, nullptr, 10);
}

// A connected socket, closed when it goes.
class connection {
 public:
  // To 127.0.0.1:`port` (from the IPv4 address `from` when it is not empty: another
  // client as the server sees it); to the Unix socket `path` when it is not empty.
  explicit connection(uint16_t port, const std::string& path = "", const std::string& from = "") {
    if (!path.empty()) {
      fd_ = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
      sockaddr_un address{};
      address.sun_family = AF_UNIX;
      std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
      connected_ = connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    } else {
      fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
      if (!from.empty()) {
        sockaddr_in local{};
        local.sin_family = AF_INET;
        inet_pton(AF_INET, from.c_str(), &local.sin_addr);
        if (bind(fd_, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0) return;
      }
      sockaddr_in address{};
      address.sin_family = AF_INET;
      address.sin_port = htons(port);
      address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      connected_ = connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    }
  }
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;
  ~connection() { close(); }

  bool connected() const { return connected_; }

  bool send_all(const std::string& bytes) {
    size_t sent = 0;
    while (sent < bytes.size()) {
      const ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return false;
      sent += static_cast<size_t>(n);
    }
    return true;
  }

  // Everything until the server closes the connection or `timeout` passes, at most
  // `limit` bytes.
  std::string receive(std::chrono::milliseconds timeout = std::chrono::seconds(10), size_t limit = SIZE_MAX) {
    std::string out;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    char buffer[65536];
    while (out.size() < limit) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) break;
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
      const ssize_t n = ::recv(fd_, buffer, std::min(sizeof buffer, limit - out.size()), 0);
      if (n <= 0) break;
      out.append(buffer, static_cast<size_t>(n));
    }
    return out;
  }

  // One response on a connection kept alive: up to the end of its body (by its
  // Content-Length, or the last chunk of a chunked one), at most `timeout`.
  std::string receive_response(std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    std::string out;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!complete_response(out)) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) break;
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
      char buffer[65536];
      const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
      if (n <= 0) break;
      out.append(buffer, static_cast<size_t>(n));
    }
    return out;
  }

  // Whether the server has closed its side within `timeout`.
  bool closed_by_server(std::chrono::milliseconds timeout) {
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(timeout.count())) <= 0) return false;
    char byte;
    return ::recv(fd_, &byte, 1, MSG_PEEK) <= 0;
  }

  // Says the request is over: the server reads end of file after it.
  void shutdown_write() { ::shutdown(fd_, SHUT_WR); }

  // Leaves with a reset instead of an orderly close.
  void reset() {
    const linger abort_on_close{1, 0};
    setsockopt(fd_, SOL_SOCKET, SO_LINGER, &abort_on_close, sizeof abort_on_close);
    close();
  }

  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
  bool connected_ = false;
};

struct http_result {
  int status = 0;  // 0: no status line came back
  std::string head;
  std::string body;
};

// A chunked body's data (RFC 9112, 7.1), without extensions or trailers; what
// precedes a malformed or missing chunk.
inline std::string unchunk(const std::string& body) {
  std::string data;
  size_t at = 0;
  for (;;) {
    const size_t line_end = body.find("\r\n", at);
    if (line_end == std::string::npos) return data;
    const size_t size = std::strtoul(body.substr(at, line_end - at).c_str(), nullptr, 16);
    if (size == 0 || line_end + 2 + size > body.size()) return data;
    data.append(body, line_end + 2, size);
    at = line_end + 2 + size + 2;
  }
}

inline http_result parse_response(const std::string& raw) {
  http_result r;
  const size_t end = raw.find("\r\n\r\n");
  r.head = raw.substr(0, end);
  if (end != std::string::npos) r.body = raw.substr(end + 4);
  if (r.head.find("\r\nTransfer-Encoding: chunked") != std::string::npos) r.body = unchunk(r.body);
  if (raw.compare(0, 9, "HTTP/1.1 ") == 0 || raw.compare(0, 9, "HTTP/1.0 ") == 0) r.status = std::atoi(raw.c_str() + 9);
  return r;
}

// One request (`Connection: close`) and its response.
inline http_result http_get(uint16_t port, const std::string& target, const std::string& headers = "",
                            const std::string& method = "GET", const std::string& unix_path = "") {
  connection c(port, unix_path);
  c.send_all(method + " " + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n" + headers + "\r\n");
  return parse_response(c.receive());
}

}  // namespace perf::testing

#endif  // PERF_HARNESS_HTTP_CLIENT_HPP
