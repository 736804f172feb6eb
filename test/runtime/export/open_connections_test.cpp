// The transport's bookkeeping of its connections, on socket pairs: which one the
// deadline and the cap shut down, at given times.
#include "export/http/open_connections.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

namespace perf::runtime {
namespace {

using namespace std::chrono_literals;
using steady = open_connections::clock;

// A connection as the server holds it (`server`), and its client's end.
struct socket_pair {
  socket_pair() { EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0); }
  ~socket_pair() {
    close(fds[0]);
    close(fds[1]);
  }
  int server() const { return fds[0]; }
  // Whether the server's end was shut down: the client reads end of file.
  bool shut() const {
    pollfd p{fds[1], POLLIN, 0};
    char byte;
    return poll(&p, 1, 0) == 1 && recv(fds[1], &byte, 1, MSG_DONTWAIT) == 0;
  }
  int fds[2];
};

TEST(OpenConnections, TheConnectionThatMakesTheCapShutsTheOneWaitingLongestForItsRequest) {
  open_connections connections(10s, 4);
  socket_pair answered, oldest, newer, newest;
  const steady::time_point t0 = steady::now();
  open_connections::entry* a = connections.add(answered.server(), t0);
  connections.add(oldest.server(), t0 + 1s);
  connections.add(newer.server(), t0 + 2s);
  connections.answering(a, t0 + 3s);  // its request is in: not closed for room
  connections.add(newest.server(), t0 + 4s);
  EXPECT_TRUE(oldest.shut());
  EXPECT_FALSE(answered.shut());
  EXPECT_FALSE(newer.shut());
  EXPECT_FALSE(newest.shut());
  EXPECT_EQ(connections.size(), 4u) << "the transport removes it when it has closed it";
}

// With 1,000 clients reconnecting in a loop, the connections accepted in one round
// were each closed for the next before their requests, already sent, were read.
TEST(OpenConnections, AConnectionWhoseRequestIsInButUnreadIsNotShutForRoom) {
  open_connections connections(10s, 3);
  socket_pair sent, idle, newest;
  const steady::time_point t0 = steady::now();
  connections.add(sent.server(), t0);
  connections.add(idle.server(), t0 + 1s);
  ASSERT_EQ(send(sent.fds[1], "GET / HTTP/1.1\r\n\r\n", 18, 0), 18);
  connections.add(newest.server(), t0 + 2s);
  EXPECT_FALSE(sent.shut());
  EXPECT_TRUE(idle.shut());
  EXPECT_FALSE(newest.shut());
}

// The program closed the connection's descriptor (closefrom(3)) and its own socket
// took the number: the deadline shuts nothing of the program's.
TEST(OpenConnections, ANumberTheProgramReusedIsNotShutDown) {
  open_connections connections(10s, 64);
  const steady::time_point t0 = steady::now();
  int number = -1;
  {
    socket_pair closed_by_the_program;
    number = closed_by_the_program.server();
    connections.add(number, t0);
  }
  socket_pair programs;
  ASSERT_EQ(programs.server(), number) << "the lowest free number is reused";
  connections.close_overdue(t0 + 10s);
  EXPECT_FALSE(programs.shut());
}

TEST(OpenConnections, ARequestIsShutAtItsDeadlineCountedFromConnectingOrTheLastResponse) {
  open_connections connections(10s, 64);
  socket_pair trickling, kept_alive, answering;
  const steady::time_point t0 = steady::now();
  connections.add(trickling.server(), t0);
  open_connections::entry* k = connections.add(kept_alive.server(), t0);
  open_connections::entry* a = connections.add(answering.server(), t0);
  connections.answering(k, t0 + 1s);
  connections.waiting(k, t0 + 2s);  // answered; waits for its next request
  connections.answering(a, t0 + 3s);
  EXPECT_EQ(connections.next_deadline(), t0 + 10s);
  connections.close_overdue(t0 + 10s - 1ms);
  EXPECT_FALSE(trickling.shut());
  connections.close_overdue(t0 + 10s);
  EXPECT_TRUE(trickling.shut());
  EXPECT_FALSE(kept_alive.shut());
  EXPECT_EQ(connections.next_deadline(), t0 + 12s);
  connections.close_overdue(t0 + 12s);
  EXPECT_TRUE(kept_alive.shut());
  EXPECT_FALSE(answering.shut()) << "a request being answered has no request deadline";
  EXPECT_EQ(connections.next_deadline(), std::optional<steady::time_point>());
}

}  // namespace
}  // namespace perf::runtime
