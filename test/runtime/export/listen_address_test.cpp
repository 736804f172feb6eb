#include "export/listen_address.hpp"

#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <fstream>

#include <gtest/gtest.h>

namespace perf::runtime {
namespace {

listen_address parsed(const char* text) {
  const value_or_problem<listen_address> address = parse_listen_address(text);
  EXPECT_EQ(address.problem, "");
  return address.value;
}

std::string refused(const char* text) {
  const std::string problem = parse_listen_address(text).problem;
  EXPECT_NE(problem, "") << text;
  return problem;
}

TEST(ListenAddress, APortAloneListensOnLoopback) {
  for (const char* text : {"9464", ":9464", "localhost:9464"}) {
    const listen_address a = parsed(text);
    EXPECT_EQ(a.kind, listen_address::family::inet4);
    EXPECT_EQ(a.host, "127.0.0.1") << text;
    EXPECT_EQ(a.port, 9464);
    EXPECT_TRUE(a.loopback);
  }
}

TEST(ListenAddress, IPv6AndUnixSockets) {
  const listen_address v6 = parsed("[::1]:0");
  EXPECT_EQ(v6.kind, listen_address::family::inet6);
  EXPECT_EQ(v6.host, "::1");
  EXPECT_EQ(v6.port, 0);
  EXPECT_TRUE(v6.loopback);
  EXPECT_EQ(describe(v6), "[::1]:0");
  const listen_address unix_socket = parsed("/run/app/perf.sock");
  EXPECT_EQ(unix_socket.kind, listen_address::family::unix_socket);
  EXPECT_EQ(unix_socket.path, "/run/app/perf.sock");
  EXPECT_EQ(describe(unix_socket), "/run/app/perf.sock");
}

TEST(ListenAddress, AnAddressBeyondTheMachineIsSpelledOutAndMarked) {
  EXPECT_FALSE(parsed("0.0.0.0:9464").loopback);
  EXPECT_FALSE(parsed("10.1.2.3:9464").loopback);
  EXPECT_FALSE(parsed("[::]:9464").loopback);
  EXPECT_TRUE(parsed("127.0.0.2:9464").loopback);
}

TEST(ListenAddress, BadValuesSayWhatIsWrong) {
  EXPECT_EQ(refused("127.0.0.1:http"), "PERF_LISTEN='127.0.0.1:http': 'http' is not a port from 0 to 65535");
  EXPECT_EQ(refused("70000"), "PERF_LISTEN='70000': '70000' is not a port from 0 to 65535");
  EXPECT_EQ(refused("example.com:80"),
            "PERF_LISTEN='example.com:80': 'example.com' is not an IPv4 address (names other than localhost are not "
            "looked up)");
  EXPECT_EQ(refused("[::1]9464"), "PERF_LISTEN='[::1]9464' is not [IPV6]:PORT");
  EXPECT_EQ(refused("[1.2.3.4]:80"), "PERF_LISTEN='[1.2.3.4]:80': '1.2.3.4' is not an IPv6 address");
}

TEST(ListenAddress, PortZeroBecomesTheBoundPort) {
  listen_address a = parsed("127.0.0.1:0");
  const auto [fd, problem] = open_listen_socket(a);
  ASSERT_GE(fd, 0) << problem;
  EXPECT_NE(a.port, 0);
  close(fd);
}

std::string socket_path(const char* name) {
  return ::testing::TempDir() + "perf-listen-" + std::to_string(getpid()) + "-" + name + ".sock";
}

// A Unix socket bound at `path`, listening or not.
int bound_unix_socket(const std::string& path, bool listening) {
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
  if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || (listening && listen(fd, 4) != 0)) {
    close(fd);
    return -1;
  }
  return fd;
}

bool exists(const std::string& path) {
  struct stat s;
  return lstat(path.c_str(), &s) == 0;
}

// Another process's service listening on a Unix socket: PERF_LISTEN naming its path
// must neither take the path over nor remove it.
TEST(ListenAddress, ALiveSocketOfAnotherProcessIsLeftAlone) {
  const std::string path = socket_path("live");
  unlink(path.c_str());
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t service = fork();
  if (service == 0) {
    const char listening = bound_unix_socket(path, true) >= 0 ? 'y' : 'n';
    if (write(ready[1], &listening, 1) != 1) _exit(1);
    pause();
    _exit(0);
  }
  char listening = 0;
  ASSERT_EQ(read(ready[0], &listening, 1), 1);
  ASSERT_EQ(listening, 'y');
  listen_address a = parsed(path.c_str());
  const auto [fd, problem] = open_listen_socket(a);
  EXPECT_EQ(fd, -1);
  EXPECT_EQ(problem, "cannot listen on " + path + ": another process is listening there");
  remove_socket_file(a);  // what the program's exit would do: it made nothing
  // The service is still reachable at its path.
  const int client = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
  EXPECT_EQ(connect(client, reinterpret_cast<sockaddr*>(&address), sizeof address), 0) << std::strerror(errno);
  close(client);
  kill(service, SIGKILL);
  waitpid(service, nullptr, 0);
  close(ready[0]);
  close(ready[1]);
  unlink(path.c_str());
}

TEST(ListenAddress, AStaleSocketIsReplacedAndTheSocketMadeIsRemovedAtTheEnd) {
  const std::string path = socket_path("stale");
  unlink(path.c_str());
  const int gone = bound_unix_socket(path, true);
  ASSERT_GE(gone, 0);
  close(gone);  // its process is gone; the file stays
  ASSERT_TRUE(exists(path));
  listen_address a = parsed(path.c_str());
  const auto [fd, problem] = open_listen_socket(a);
  ASSERT_GE(fd, 0) << problem;
  close(fd);
  EXPECT_TRUE(exists(path));
  remove_socket_file(a);
  EXPECT_FALSE(exists(path));
}

TEST(ListenAddress, AFileThatIsNotASocketIsLeftAlone) {
  const std::string path = socket_path("file");
  std::ofstream(path) << "data\n";
  listen_address a = parsed(path.c_str());
  const auto [fd, problem] = open_listen_socket(a);
  EXPECT_EQ(fd, -1);
  EXPECT_EQ(problem, "cannot listen on " + path + ": Address already in use");
  remove_socket_file(a);
  std::ifstream in(path);
  std::string line;
  EXPECT_TRUE(std::getline(in, line));
  EXPECT_EQ(line, "data");
  unlink(path.c_str());
}

}  // namespace
}  // namespace perf::runtime
