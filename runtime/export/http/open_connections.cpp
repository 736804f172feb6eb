#include "export/http/open_connections.hpp"

#include <sys/ioctl.h>
#include <sys/socket.h>

#include <algorithm>

namespace perf::runtime {

// At most `limit` entries (the transport's connection cap): a linear search is cheap.
namespace {

template <typename List>
typename List::iterator find(List& entries, const open_connections::entry* e) {
  return std::find_if(entries.begin(), entries.end(), [e](const open_connections::entry& x) { return &x == e; });
}

// Whether the client has sent bytes that are not read yet: a request on its way in.
bool unread_bytes(const open_connections::entry& e) {
  int unread = 0;
  return ioctl(e.socket.fd, FIONREAD, &unread) == 0 && unread > 0;
}

}  // namespace

open_connections::entry* open_connections::add(int fd, clock::time_point now) {
  // Those already shut down are as good as closed: the transport closes them next.
  const auto open =
      std::count_if(entries_.begin(), entries_.end(), [](const entry& e) { return e.now != phase::closing; });
  if (static_cast<size_t>(open) + 1 >= limit_) {
    const auto idle = std::find_if(entries_.begin(), entries_.end(),
                                   [](const entry& e) { return e.now == phase::waiting && !unread_bytes(e); });
    if (idle != entries_.end()) shut(*idle);
  }
  entries_.push_back({owned_descriptor::of(fd), phase::waiting, now});
  return &entries_.back();
}

void open_connections::answering(entry* e, clock::time_point now) {
  if (e->now == phase::closing) return;
  e->now = phase::answering;
  e->since = now;
  entries_.splice(entries_.end(), entries_, find(entries_, e));
}

void open_connections::waiting(entry* e, clock::time_point now) {
  if (e->now == phase::closing) return;
  e->now = phase::waiting;
  e->since = now;
  entries_.splice(entries_.end(), entries_, find(entries_, e));
}

void open_connections::remove(entry* e) { entries_.erase(find(entries_, e)); }

bool open_connections::others_busy(const entry* self) const {
  return std::any_of(entries_.begin(), entries_.end(), [self](const entry& e) {
    return &e != self && (e.now == phase::answering || (e.now == phase::waiting && unread_bytes(e)));
  });
}

void open_connections::close_overdue(clock::time_point now) {
  for (entry& e : entries_) {
    if (e.since + request_timeout_ > now) break;  // and so are all after it
    if (e.now == phase::waiting) shut(e);
  }
}

std::optional<open_connections::clock::time_point> open_connections::next_deadline() const {
  for (const entry& e : entries_)
    if (e.now == phase::waiting) return e.since + request_timeout_;
  return std::nullopt;
}

// The socket stays open (the HTTP library owns it and closes it): shut down, it
// reads end of file at once, and a connection at its end is closed. A number the
// program has closed and reused is not touched.
void open_connections::shut(entry& e) {
  if (e.socket.still_ours()) shutdown(e.socket.fd, SHUT_RDWR);
  e.now = phase::closing;
}

}  // namespace perf::runtime
