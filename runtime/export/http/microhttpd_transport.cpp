// The HTTP transport, on libmicrohttpd: libperfexport, the one library that links it,
// loaded by libperfrt only when PERF_LISTEN is set (export/start.cpp). One thread
// (the caller of serve) runs every connection through MHD's epoll mode; replies
// that wait for a window of time (a profile of the next N seconds) suspend their
// connection and are resumed by the same thread when the time has come. MHD's own
// timeout is an idle one (each byte restarts it): the deadline for a whole request
// and the connection cap are open_connections', which MHD tells of every connection.
#include <limits.h>
#include <microhttpd.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <vector>

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
};

struct waiting {
  steady::time_point due;
  MHD_Connection* connection;
  delayed_reply* reply;
};

}  // namespace

struct transport {
  explicit transport(const transport_limits& l)
      : limits(l), connections(std::chrono::seconds(l.request_timeout_s), l.max_connections) {}

  MHD_Daemon* daemon = nullptr;
  http_handler* handler = nullptr;
  transport_limits limits;
  int wake_fd = -1;
  std::atomic<bool> stopping{false};
  // Only the serving thread touches these.
  std::vector<waiting> delayed;
  open_connections connections;
  // A connection closed in the last round: MHD puts its listening socket back into
  // its epoll set (taken out at the cap) only when it runs again.
  bool closed_one = false;
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

MHD_Result on_request(void* self, MHD_Connection* connection, const char* url, const char* method, const char*,
                      const char*, size_t* upload_size, void** state) {
  transport& t = *static_cast<transport*>(self);
  if (auto* resumed = static_cast<delayed_reply*>(*state)) return queue(connection, std::move(resumed->response));
  if (*upload_size != 0) {  // a body nobody asked for: the reply (405) is queued already
    *upload_size = 0;
    return MHD_YES;
  }
  // The request's headers are in: the request deadline no longer applies, nor is it
  // closed to make room.
  if (open_connections::entry* e = entry_of(connection)) t.connections.answering(e, steady::now());
  http_request request;
  request.method = method;
  request.path = url;
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
  auto* delayed = new delayed_reply{std::move(reply.later), {}};
  *state = delayed;
  t.delayed.push_back({steady::now() + reply.delay, connection, delayed});
  MHD_suspend_connection(connection);
  return MHD_YES;
}

// The request is over; the connection, if it stays, waits for the next one.
void on_completed(void* self, MHD_Connection* connection, void** state, MHD_RequestTerminationCode) {
  delete static_cast<delayed_reply*>(*state);
  *state = nullptr;
  if (open_connections::entry* e = entry_of(connection))
    static_cast<transport*>(self)->connections.waiting(e, steady::now());
}

// Gives every waiting reply whose time has come (all, with `everything`) its
// response and lets its connection go on.
void resume_due(transport& t, bool everything) {
  const steady::time_point now = steady::now();
  for (auto it = t.delayed.begin(); it != t.delayed.end();) {
    if (!everything && it->due > now) {
      ++it;
      continue;
    }
    if (everything) {
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

value_or_problem<transport*> open_transport(int listen_fd, const transport_limits& limits, http_handler& handler) {
  auto* t = new transport(limits);
  t->handler = &handler;
  t->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (t->wake_fd < 0) {
    ::close(listen_fd);
    delete t;
    return {nullptr, "eventfd failed"};
  }
  t->daemon = MHD_start_daemon(
      MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME, 0, nullptr, nullptr, on_request, t, MHD_OPTION_LISTEN_SOCKET, listen_fd,
      MHD_OPTION_CONNECTION_TIMEOUT, limits.idle_timeout_s, MHD_OPTION_CONNECTION_LIMIT, limits.max_connections,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, static_cast<size_t>(limits.request_memory), MHD_OPTION_NOTIFY_COMPLETED,
      on_completed, t, MHD_OPTION_NOTIFY_CONNECTION, on_connection, t, MHD_OPTION_END);
  if (t->daemon == nullptr) {
    ::close(listen_fd);
    ::close(t->wake_fd);
    delete t;
    return {nullptr, "libmicrohttpd could not start"};
  }
  return {t, {}};
}

void serve(transport* t) {
  const MHD_DaemonInfo* info = MHD_get_daemon_info(t->daemon, MHD_DAEMON_INFO_EPOLL_FD);
  pollfd fds[2] = {{info->epoll_fd, POLLIN, 0}, {t->wake_fd, POLLIN, 0}};
  while (!t->stopping.load(std::memory_order_acquire)) {
    // EINTR (a sample signal) just means another round.
    poll(fds, 2, poll_timeout_ms(*t));
    if ((fds[1].revents & POLLIN) != 0) {
      uint64_t ignored;
      if (read(t->wake_fd, &ignored, sizeof ignored) < 0) {}
    }
    resume_due(*t, false);
    t->connections.close_overdue(steady::now());
    t->closed_one = false;
    MHD_run(t->daemon);
  }
}

void stop(transport* t) {
  t->stopping.store(true, std::memory_order_release);
  const uint64_t one = 1;
  if (write(t->wake_fd, &one, sizeof one) < 0) {}
}

void close_transport(transport* t) {
  resume_due(*t, true);  // MHD stops only without suspended connections
  MHD_run(t->daemon);
  MHD_stop_daemon(t->daemon);
  ::close(t->wake_fd);
  delete t;
}

constexpr transport_functions functions = {open_transport, serve, stop, close_transport};

}  // namespace
}  // namespace perf::runtime

extern "C" __attribute__((visibility("default"))) const perf::runtime::transport_functions* perf_export_transport_v2() {
  return &perf::runtime::functions;
}
