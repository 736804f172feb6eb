#include "export/listen_address.hpp"

#include <gtest/gtest.h>

namespace perf::runtime {
namespace {

listen_address parsed(const char* text) {
  std::string error;
  const std::optional<listen_address> address = parse_listen_address(text, error);
  EXPECT_TRUE(address.has_value()) << error;
  return address.value_or(listen_address{});
}

std::string refused(const char* text) {
  std::string error;
  EXPECT_FALSE(parse_listen_address(text, error).has_value()) << text;
  return error;
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
  std::string error;
  const int fd = open_listen_socket(a, error);
  ASSERT_GE(fd, 0) << error;
  EXPECT_NE(a.port, 0);
  close(fd);
}

}  // namespace
}  // namespace perf::runtime
