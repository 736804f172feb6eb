// The transport's open connections and what each is doing: the request deadline
// and the connection cap act on them. Independent of libmicrohttpd: a connection is
// its socket. Used by the serving thread only.
#ifndef PERF_RUNTIME_EXPORT_HTTP_OPEN_CONNECTIONS_HPP
#define PERF_RUNTIME_EXPORT_HTTP_OPEN_CONNECTIONS_HPP

#include <chrono>
#include <list>
#include <optional>

#include "core/owned_descriptor.hpp"

namespace perf::runtime {

class open_connections {
 public:
  using clock = std::chrono::steady_clock;

  enum class phase {
    waiting,    // for its request's line and headers (a new or a kept-alive connection)
    answering,  // its request is in: being answered, or waiting for a profile's window
    closing,    // shut down by the deadline or the cap; the transport closes it next
  };

  struct entry {
    owned_descriptor socket;  // shut down only while its number is still this socket
    phase now;
    clock::time_point since;  // when it entered `now`
  };

  explicit open_connections(std::chrono::seconds request_timeout, unsigned limit)
      : request_timeout_(request_timeout), limit_(limit) {}

  // A connection just accepted: waiting for its request. When that makes `limit`
  // connections, the one that has waited longest for its request without sending
  // any (nothing unread in its socket) is shut down, so that the next can be
  // accepted: never this one, nor one whose request is in but not read yet (accepted
  // in the same round as this one, say). The entry lives until remove().
  entry* add(int fd, clock::time_point now);
  void answering(entry* e, clock::time_point now);  // its request's headers are in
  void waiting(entry* e, clock::time_point now);    // answered; kept alive for another request
  void remove(entry* e);                            // closed

  // Whether a connection other than `self` has a request under way: being answered
  // (or waiting for its window), or in its socket, not read yet.
  bool others_busy(const entry* self) const;

  // Shuts down every connection that has waited longer than the request timeout.
  void close_overdue(clock::time_point now);
  // When the next connection becomes overdue; nothing when none waits.
  std::optional<clock::time_point> next_deadline() const;

  size_t size() const { return entries_.size(); }

 private:
  void shut(entry& e);

  std::chrono::seconds request_timeout_;
  unsigned limit_;
  // In the order of `since`, oldest first: a connection that changes phase moves to the end.
  std::list<entry> entries_;
};

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_EXPORT_HTTP_OPEN_CONNECTIONS_HPP
