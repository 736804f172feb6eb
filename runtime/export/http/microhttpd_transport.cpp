// The HTTP transport, on libmicrohttpd: libperfexport, the one library that links it,
// loaded by libperfrt only when PERF_LISTEN is set (export/server.cpp). One thread
// (the caller of serve) runs every connection through MHD's epoll mode; replies
// that wait for a window of time (a profile of the next N seconds) suspend their
// connection and are resumed by the same thread when the time has come, or at once
// when their client leaves (the suspended sockets are polled beside MHD's). MHD's
// own timeout is an idle one (each byte restarts it): the deadline for a whole
// request and the connection cap are open_connections', which MHD tells of every
// connection.
//
// The program may close the transport's descriptors (a daemon's closefrom(3)) and
// reuse their numbers. Before every round the listening socket, MHD's epoll
// descriptor and the wake-up pipe are checked (core/owned_descriptor.hpp): once one
// is not what it was, the transport is orphaned: MHD is never called again (it
// would read, write and close the numbers it holds, the program's now), and its
// memory is left as it is.
#include <fcntl.h>
#include <limits.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <string_view>
#include <vector>

#include "core/owned_descriptor.hpp"
#include "export/http/open_connections.hpp"
#include "export/transport.hpp"

namespace perf::runtime {

namespace {

using steady = std::chrono::steady_clock;

// A request whose reply waits: it lives as the connection's MHD state until MHD
// says the request is over.
struct delayed_reply {
  std::function<http_response()> later;
  http_response response;
  bool client_left = false;  // resumed to be closed: nobody reads the reply
};

struct waiting {
  steady::time_point due;
  MHD_Connection* connection;
  delayed_reply* reply;
  int socket;          // watched while suspended: a client that leaves ends the window
  std::string client;  // client_of() the request
  bool client_left = false;
};

// A request's MHD state besides a delayed_reply: its headers are in (it is answered
// on MHD's next call, so that its connection can be kept alive: MHD closes one whose
// reply is queued on the first call), or it was refused by refuse_at_once().
char headers_in_marker, refused_marker;
void* const headers_in = &headers_in_marker;
void* const refused = &refused_marker;

}  // namespace

struct transport {
  explicit transport(const transport_limits& l)
      : limits(l), connections(std::chrono::seconds(l.request_timeout_s), l.max_connections) {}

  MHD_Daemon* daemon = nullptr;
  http_handler* handler = nullptr;
  transport_limits limits;
  // What is checked before every round; the pipe wakes the server thread at stop().
  owned_descriptor listening, epoll, wake_read, wake_write;
  std::atomic<bool> stopping{false};
  // Only the serving thread touches these.
  std::vector<waiting> delayed;
  open_connections connections;
  // A connection closed in the last round: MHD puts its listening socket back into
  // its epoll set (taken out at the cap) only when it runs again.
  bool closed_one = false;
  bool orphaned = false;  // a descriptor was closed or replaced by the program: MHD is left alone
};

namespace {

// What MHD asks a stream for at most at once (it may ask for less: what its
// connection buffer has free).
constexpr size_t stream_block_size = 64 * 1024;

void free_body(void* body) { delete static_cast<std::string*>(body); }

void free_stream(void* stream) { delete static_cast<body_writer*>(stream); }

ssize_t read_stream(void* stream, uint64_t, char* out, size_t room) {
  try {
    const size_t n = (*static_cast<body_writer*>(stream))(out, room);
    return n == 0 ? MHD_CONTENT_READER_END_OF_STREAM : static_cast<ssize_t>(n);
  } catch (const std::exception&) { return MHD_CONTENT_READER_END_WITH_ERROR; }
}

// MHD sends straight from the body, which lives until the response is done; a
// stream writes into the connection's buffer as MHD sends.
MHD_Response* create_response(http_response& r) {
  if (r.stream) {
    auto* stream = new body_writer(std::move(r.stream));
    MHD_Response* response =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, stream_block_size, read_stream, stream, free_stream);
    if (response == nullptr) delete stream;
    return response;
  }
  auto* body = new std::string(std::move(r.body));
  MHD_Response* response =
      MHD_create_response_from_buffer_with_free_callback_cls(body->size(), body->data(), free_body, body);
  if (response == nullptr) delete body;
  return response;
}

MHD_Result queue(MHD_Connection* connection, http_response&& r) {
  MHD_Response* response = create_response(r);
  if (response == nullptr) return MHD_NO;
  if (!r.content_type.empty()) MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, r.content_type.c_str());
  if (!r.allow.empty()) MHD_add_response_header(response, MHD_HTTP_HEADER_ALLOW, r.allow.c_str());
  for (const auto& [name, value] : r.headers) MHD_add_response_header(response, name.c_str(), value.c_str());
  const MHD_Result queued = MHD_queue_response(connection, static_cast<unsigned>(r.status), response);
  MHD_destroy_response(response);
  return queued;
}

http_response plain(int status, std::string text) {
  return {status, "text/plain; charset=utf-8", std::move(text), {}, {}, {}};
}

MHD_Result add_argument(void* request, MHD_ValueKind, const char* key, const char* value) {
  static_cast<http_request*>(request)->query.emplace_back(key != nullptr ? key : "", value != nullptr ? value : "");
  return MHD_YES;
}

// What open_connections knows of `connection` (MHD keeps it as the connection's
// socket context).
open_connections::entry* entry_of(MHD_Connection* connection) {
  const MHD_ConnectionInfo* info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return info != nullptr ? static_cast<open_connections::entry*>(info->socket_context) : nullptr;
}

void on_connection(void* self, MHD_Connection* connection, void** socket_context, MHD_ConnectionNotificationCode code) {
  open_connections& connections = static_cast<transport*>(self)->connections;
  if (code == MHD_CONNECTION_NOTIFY_STARTED) {
    const MHD_ConnectionInfo* info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    *socket_context = connections.add(info->connect_fd, steady::now());
  } else if (*socket_context != nullptr) {
    connections.remove(static_cast<open_connections::entry*>(*socket_context));
    *socket_context = nullptr;
    static_cast<transport*>(self)->closed_one = true;
  }
}

int socket_of(MHD_Connection* connection) {
  const MHD_ConnectionInfo* info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  return info != nullptr ? info->connect_fd : -1;
}

// Who asks, for the share of windows one may hold: the peer's IP address; on a Unix
// socket, the peer's process.
std::string client_of(MHD_Connection* connection) {
  const MHD_ConnectionInfo* info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  const sockaddr* address = info != nullptr ? info->client_addr : nullptr;
  if (address != nullptr && address->sa_family == AF_INET) {
    const in_addr& ip = reinterpret_cast<const sockaddr_in*>(address)->sin_addr;
    return std::string("ipv4 ") + std::string(reinterpret_cast<const char*>(&ip), sizeof ip);
  }
  if (address != nullptr && address->sa_family == AF_INET6) {
    const in6_addr& ip = reinterpret_cast<const sockaddr_in6*>(address)->sin6_addr;
    return std::string("ipv6 ") + std::string(reinterpret_cast<const char*>(&ip), sizeof ip);
  }
  ucred peer{};
  socklen_t size = sizeof peer;
  if (getsockopt(socket_of(connection), SOL_SOCKET, SO_PEERCRED, &peer, &size) == 0)
    return "process " + std::to_string(peer.pid);
  return {};
}

// Whether clients besides the one of `self` wait: a connection in the listening
// socket's queue, or a request under way in another.
bool others_waiting(const transport& t, const open_connections::entry* self) {
  pollfd queued{t.listening.fd, POLLIN, 0};
  return poll(&queued, 1, 0) == 1 || t.connections.others_busy(self);
}

// Whether the request announces a body: answered at once (a body is never wanted),
// which has MHD close the connection after the reply instead of reading the body.
bool announces_body(MHD_Connection* connection) {
  const char* length = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
  return (length != nullptr && std::string_view(length) != "0") ||
         MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING) != nullptr;
}

MHD_Result on_request(void* self, MHD_Connection* connection, const char* url, const char* method, const char*,
                      const char*, size_t*, void** state) {
  transport& t = *static_cast<transport*>(self);
  if (*state == refused) return MHD_NO;  // answered already; closed
  if (*state == nullptr) {
    // The request's headers are in: the request deadline no longer applies, nor is
    // it closed to make room.
    if (open_connections::entry* e = entry_of(connection)) t.connections.answering(e, steady::now());
    *state = headers_in;
    if (!announces_body(connection)) return MHD_YES;  // answered on the next call, kept alive
  } else if (*state != headers_in) {
    auto* resumed = static_cast<delayed_reply*>(*state);
    return resumed->client_left ? MHD_NO : queue(connection, std::move(resumed->response));
  }
  http_request request;
  request.method = method;
  request.path = url;
  request.others_waiting = others_waiting(t, entry_of(connection));
  if (const char* accept = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT))
    request.accept = accept;
  MHD_get_connection_values(connection, MHD_GET_ARGUMENT_KIND, add_argument, &request);
  http_reply reply;
  try {
    reply = t.handler->answer(request);
  } catch (const std::exception& e) { return queue(connection, plain(500, std::string(e.what()) + "\n")); }
  if (!reply.later) return queue(connection, std::move(reply.response));
  if (t.delayed.size() >= t.limits.max_delayed)
    return queue(connection, plain(503, "too many profiles or traces under way; try again later\n"));
  std::string client = client_of(connection);
  if (std::count_if(t.delayed.begin(), t.delayed.end(), [&](const waiting& w) { return w.client == client; }) >=
      t.limits.max_delayed_per_client)
    return queue(connection, plain(503, "this client has " + std::to_string(t.limits.max_delayed_per_client) +
                                            " profiles or traces under way, its share; try again later\n"));
  auto* delayed = new delayed_reply{std::move(reply.later), {}, false};
  *state = delayed;
  t.delayed.push_back({steady::now() + reply.delay, connection, delayed, socket_of(connection), std::move(client)});
  MHD_suspend_connection(connection);
  return MHD_YES;
}

// Sends `status` with `text` on the connection's socket and shuts its sending side:
// for a request line MHD would take in but not answer (it runs out of its memory
// parsing many arguments, and then waits for the request deadline). Whatever MHD
// tries to send after finds the socket shut.
void refuse_at_once(MHD_Connection* connection, const char* status, const std::string& text) {
  const int socket = socket_of(connection);
  const std::string response = std::string("HTTP/1.1 ") + status +
                               "\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: " +
                               std::to_string(text.size()) + "\r\n\r\n" + text;
  if (send(socket, response.data(), response.size(), MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {}
  shutdown(socket, SHUT_WR);
}

// The request line is in, its target not parsed yet: one beyond the limits of the
// target (within which its arguments always fit in MHD's memory) is refused now.
// What this returns is the request's MHD state.
void* on_request_line(void* self, const char* target, MHD_Connection* connection) {
  const transport_limits& limits = static_cast<transport*>(self)->limits;
  const std::string_view text(target);
  const size_t query = text.find('?');
  const size_t arguments = query == std::string_view::npos ? 0 : 1 + std::count(text.begin() + query, text.end(), '&');
  if (text.size() <= limits.max_target_bytes && arguments <= limits.max_arguments) return nullptr;
  refuse_at_once(connection, "414 URI Too Long",
                 "the request target has more than " + std::to_string(limits.max_target_bytes) + " bytes or " +
                     std::to_string(limits.max_arguments) + " arguments\n");
  return refused;
}

// The request is over; the connection, if it stays, waits for the next one.
void on_completed(void* self, MHD_Connection* connection, void** state, MHD_RequestTerminationCode) {
  if (*state != headers_in && *state != refused) delete static_cast<delayed_reply*>(*state);
  *state = nullptr;
  if (open_connections::entry* e = entry_of(connection))
    static_cast<transport*>(self)->connections.waiting(e, steady::now());
}

// Gives every waiting reply whose time has come (all, with `everything`) its
// response and lets its connection go on; one whose client left, without a
// response (its window given up, a trace's place freed, its connection closed).
void resume_due(transport& t, bool everything) {
  const steady::time_point now = steady::now();
  for (auto it = t.delayed.begin(); it != t.delayed.end();) {
    if (!everything && !it->client_left && it->due > now) {
      ++it;
      continue;
    }
    if (it->client_left) {
      it->reply->client_left = true;
      it->reply->later = nullptr;
    } else if (everything) {
      it->reply->response = plain(503, "the program is exiting\n");
    } else {
      try {
        it->reply->response = it->reply->later();
      } catch (const std::exception& e) { it->reply->response = plain(500, std::string(e.what()) + "\n"); }
    }
    MHD_resume_connection(it->connection);
    it = t.delayed.erase(it);
  }
}

int poll_timeout_ms(const transport& t) {
  if (t.closed_one) return 0;
  long long timeout = -1;
  MHD_UNSIGNED_LONG_LONG mhd_timeout = 0;
  if (MHD_get_timeout(t.daemon, &mhd_timeout) == MHD_YES)
    timeout = static_cast<long long>(std::min<MHD_UNSIGNED_LONG_LONG>(mhd_timeout, INT_MAX));
  const auto until = [&](steady::time_point due) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(due - steady::now()).count();
    const long long until_due = std::max<long long>(0, left);
    timeout = timeout < 0 ? until_due : std::min(timeout, until_due);
  };
  for (const waiting& w : t.delayed) until(w.due);
  if (const std::optional<steady::time_point> deadline = t.connections.next_deadline()) until(*deadline);
  return static_cast<int>(timeout);
}

bool descriptors_still_ours(const transport& t) {
  return t.listening.still_ours() && t.epoll.still_ours() && t.wake_read.still_ours() && t.wake_write.still_ours();
}

value_or_problem<transport*> open_transport(int listen_fd, const transport_limits& limits, http_handler& handler) {
  auto* t = new transport(limits);
  t->handler = &handler;
  t->listening = owned_descriptor::of(listen_fd);
  int wake[2];
  if (pipe2(wake, O_CLOEXEC | O_NONBLOCK) != 0) {
    ::close(listen_fd);
    delete t;
    return {nullptr, "pipe failed"};
  }
  t->wake_read = owned_descriptor::of(wake[0]);
  t->wake_write = owned_descriptor::of(wake[1]);
  t->daemon = MHD_start_daemon(MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME, 0, nullptr, nullptr, on_request, t,
                               MHD_OPTION_LISTEN_SOCKET, listen_fd, MHD_OPTION_CONNECTION_TIMEOUT,
                               limits.idle_timeout_s, MHD_OPTION_CONNECTION_LIMIT, limits.max_connections,
                               MHD_OPTION_CONNECTION_MEMORY_LIMIT, static_cast<size_t>(limits.request_memory),
                               MHD_OPTION_NOTIFY_COMPLETED, on_completed, t, MHD_OPTION_NOTIFY_CONNECTION,
                               on_connection, t, MHD_OPTION_URI_LOG_CALLBACK, on_request_line, t, MHD_OPTION_END);
  if (t->daemon == nullptr) {
    ::close(listen_fd);
    ::close(wake[0]);
    ::close(wake[1]);
    delete t;
    return {nullptr, "libmicrohttpd could not start"};
  }
  t->epoll = owned_descriptor::of(MHD_get_daemon_info(t->daemon, MHD_DAEMON_INFO_EPOLL_FD)->epoll_fd);
  return {t, {}};
}

void serve(transport* t) {
  std::vector<pollfd> fds;
  while (!t->stopping.load(std::memory_order_acquire)) {
    fds.assign({{t->epoll.fd, POLLIN, 0}, {t->wake_read.fd, POLLIN, 0}});
    for (const waiting& w : t->delayed) fds.push_back({w.socket, POLLRDHUP, 0});
    // EINTR (a sample signal) just means another round.
    poll(fds.data(), fds.size(), poll_timeout_ms(*t));
    if (!descriptors_still_ours(*t)) {
      t->orphaned = true;
      return;
    }
    if ((fds[1].revents & POLLIN) != 0) {
      char ignored[64];
      while (read(t->wake_read.fd, ignored, sizeof ignored) > 0) {}
    }
    // Hung up, reset or shut: the client will read no reply.
    for (size_t i = 2; i < fds.size(); ++i)
      if (fds[i].revents != 0) t->delayed[i - 2].client_left = true;
    resume_due(*t, false);
    t->connections.close_overdue(steady::now());
    t->closed_one = false;
    MHD_run(t->daemon);
  }
}

void stop(transport* t) {
  t->stopping.store(true, std::memory_order_release);
  const char one = 1;
  if (t->wake_write.still_ours() && write(t->wake_write.fd, &one, sizeof one) < 0) {}
}

void close_transport(transport* t) {
  if (!t->orphaned && descriptors_still_ours(*t)) {
    resume_due(*t, true);  // MHD stops only without suspended connections
    MHD_run(t->daemon);
    MHD_stop_daemon(t->daemon);
  } else {
    // MHD would close numbers that are the program's now: it is left as it is, its
    // memory kept (and reachable, for a leak checker), once per server.
    static auto* const abandoned = new std::vector<MHD_Daemon*>;
    abandoned->push_back(t->daemon);
  }
  for (const owned_descriptor& wake : {t->wake_read, t->wake_write})
    if (wake.still_ours()) ::close(wake.fd);
  delete t;
}

constexpr transport_functions functions = {open_transport, serve, stop, close_transport};

}  // namespace
}  // namespace perf::runtime

extern "C" __attribute__((visibility("default"))) const perf::runtime::transport_functions* perf_export_transport_v3() {
  return &perf::runtime::functions;
}
