// What the runtime (libperfrt) and the HTTP transport (libperfexport, which alone
// links libmicrohttpd) say to each other. libperfrt loads the transport only when
// PERF_LISTEN is set (export/server.cpp); both are built from one source tree by one
// compiler, so C++ types cross between them.
#ifndef PERF_RUNTIME_EXPORT_TRANSPORT_HPP
#define PERF_RUNTIME_EXPORT_TRANSPORT_HPP

#include <chrono>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/value_or_problem.hpp"

namespace perf::runtime {

struct http_request {
  std::string method;
  std::string path;
  std::string accept;                                      // the Accept header; empty when absent
  std::vector<std::pair<std::string, std::string>> query;  // decoded arguments, in order
  // Other clients wait for the server: a request in another connection, being
  // answered or not read yet, or a connection not accepted yet.
  bool others_waiting = false;
};

// A body written as it is sent: each call writes at most `room` bytes to `out` and
// returns how many, 0 once the body is complete.
using body_writer = std::function<size_t(char* out, size_t room)>;

struct http_response {
  int status = 200;
  std::string content_type;
  std::string body;
  std::string allow;  // the Allow header of a 405; empty: none
  // When set, the body is what this writes instead of `body`, sent as it comes
  // (chunked). Called on the server thread, until it returns 0 or the client goes;
  // destroyed after the last call.
  body_writer stream;
  // Further headers, (name, value): a profile's Content-Disposition, pprof's X-Go-Pprof.
  std::vector<std::pair<std::string, std::string>> headers;
};

// The answer to a request: `response` now, or, when `later` is set, what `later`
// returns once `delay` has passed (a profile of the next N seconds). `later` runs on
// the server thread; meanwhile the server goes on serving other requests.
struct http_reply {
  http_response response;
  std::chrono::milliseconds delay{0};
  std::function<http_response()> later;
};

// The runtime's side, called on the server thread only.
class http_handler {
 public:
  virtual http_reply answer(const http_request& request) = 0;

 protected:
  ~http_handler() = default;
};

struct transport_limits {
  // From connecting, or from the end of the previous response, to the end of the
  // request's headers; beyond: closed, however steadily its bytes come.
  unsigned request_timeout_s = 10;
  unsigned idle_timeout_s = 10;  // a response the client takes nothing of for this long: closed
  // Beyond: the connection that has waited longest for a request without sending
  // one is closed.
  unsigned max_connections = 64;
  unsigned max_delayed = 8;             // replies waiting for their `delay` at once; beyond: 503
  unsigned max_delayed_per_client = 4;  // of them, from one client (address; a Unix socket's process)
  unsigned request_memory = 32768;      // per connection, for the request line and headers; beyond: 431
  // The request target (path and query) and its query's arguments; beyond: 414.
  // Within them the arguments always fit in `request_memory`.
  unsigned max_target_bytes = 8192;
  unsigned max_arguments = 64;
};

struct transport;

// The transport's entry points, found by the runtime as the symbol
// `perf_export_transport_v3` (a function returning a pointer to this table). The
// suffix changes with every change to a type the table passes, so that a
// libperfexport of another version beside libperfrt is refused by name rather than
// called with the wrong layout (v2: http_response gained its headers; v3:
// transport_limits its share per client and its limits of the request target,
// http_request `others_waiting`).
struct transport_functions {
  // Serves HTTP on `listen_fd` (bound and listening; the transport owns it from now
  // on) for `handler`; the problem (and null) when it cannot.
  value_or_problem<transport*> (*open)(int listen_fd, const transport_limits& limits, http_handler& handler);
  // Serves on the calling thread until stop() is called.
  void (*serve)(transport* t);
  // From any thread: has serve() return soon.
  void (*stop)(transport* t);
  // After serve() returned: closes every connection and the socket.
  void (*close)(transport* t);
};

}  // namespace perf::runtime

extern "C" {
using perf_export_transport_fn = const perf::runtime::transport_functions* (*)();
}

#endif  // PERF_RUNTIME_EXPORT_TRANSPORT_HPP
