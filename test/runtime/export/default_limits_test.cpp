// The live endpoint with its default limits (transport_limits{}): the windows of
// time a client can hold, and a status for every request, whatever its size.
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "export/server.hpp"
#include "harness/http_client.hpp"

namespace perf::runtime {
namespace {

using perf::testing::connection;
using perf::testing::http_get;
using perf::testing::http_result;
using perf::testing::parse_response;
using namespace std::chrono_literals;

class DefaultLimits : public ::testing::Test {
 protected:
  void SetUp() override {
    value_or_problem<listen_address> parsed = parse_listen_address("127.0.0.1:0");
    ASSERT_EQ(parsed.problem, "");
    address = parsed.value;
    ASSERT_EQ(start_server(address, transport_limits{}), "");
  }
  void TearDown() override { stop_server(); }

  // A connection from `from` that sent `GET target` and waits for its reply.
  std::unique_ptr<connection> waiting_for(const std::string& target, const std::string& from = "") {
    auto c = std::make_unique<connection>(address.port, "", from);
    EXPECT_TRUE(c->send_all("GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n"));
    return c;
  }

  listen_address address;
};

// Eight profiles and a trace of 300 s whose clients leave after 50 ms. Before, their
// windows ran on, and every profile and trace got 503 for the 300 s.
TEST_F(DefaultLimits, AWindowWhoseClientLeftEndsAtOnce) {
  std::vector<std::unique_ptr<connection>> leaving;
  for (int i = 0; i < 8; ++i) leaving.push_back(waiting_for("/debug/pprof/profile?seconds=300"));
  leaving.push_back(waiting_for("/trace?seconds=300"));
  std::this_thread::sleep_for(50ms);
  leaving.clear();
  http_result trace;
  std::thread tracer([&] { trace = http_get(address.port, "/trace?seconds=1"); });
  const http_result profile = http_get(address.port, "/debug/pprof/profile?seconds=1");
  tracer.join();
  EXPECT_EQ(profile.status, 200) << profile.body;
  EXPECT_EQ(trace.status, 200) << trace.body;
}

// One client (an address) holding windows and staying: it gets half of the 8 slots,
// and another client still gets a window.
TEST_F(DefaultLimits, AClientHoldsAtMostItsShareOfTheWindows) {
  std::vector<std::unique_ptr<connection>> held;
  for (int i = 0; i < 4; ++i) held.push_back(waiting_for("/debug/pprof/profile?seconds=300", "127.0.0.1"));
  for (int i = 0; i < 4; ++i) {
    const http_result refused =
        parse_response(waiting_for("/debug/pprof/profile?seconds=300", "127.0.0.1")->receive_response(2s));
    EXPECT_EQ(refused.status, 503);
    EXPECT_EQ(refused.body, "this client has 4 profiles or traces under way, its share; try again later\n");
  }
  const http_result other =
      parse_response(waiting_for("/debug/pprof/profile?seconds=1", "127.0.0.2")->receive_response(5s));
  EXPECT_EQ(other.status, 200) << other.body;
  for (const auto& c : held) EXPECT_FALSE(c->closed_by_server(0ms)) << "a window of 300 s still waits";
}

// The pages that read every thread keep to half of the server's time only while
// others wait: a client alone, asking again and again, gets every page.
TEST_F(DefaultLimits, AClientAloneGetsEveryPageItAsksFor) {
  for (int i = 0; i < 20; ++i) {
    const http_result r = http_get(address.port, i % 2 == 0 ? "/report.json" : "/metrics");
    ASSERT_EQ(r.status, 200) << "request " << i << ": " << r.body;
  }
}

// A request of any size gets a status: those that fit 200, a request line beyond the
// limit 414, headers beyond it 431. Before, a query of 32,700 bytes or of 10,000
// empty parameters was closed after 10 s without one.
TEST_F(DefaultLimits, EveryRequestGetsAStatusWhateverItsSize) {
  auto status_of = [&](const std::string& target, const std::string& headers = "") {
    connection c(address.port);
    c.send_all("GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + headers + "\r\n");
    return parse_response(c.receive(3s)).status;
  };
  for (const size_t length : {1000u, 16'000u, 30'000u, 32'000u, 32'700u, 32'760u, 33'000u, 40'000u, 100'000u}) {
    const int status = status_of("/?q=" + std::string(length, 'a'));
    EXPECT_TRUE(status == 200 || status == 414) << length << "-byte query: " << status;
  }
  for (const size_t count : {100u, 1000u, 3000u, 10'000u, 16'000u, 40'000u}) {
    std::string empty_parameters = "/?";
    for (size_t i = 0; i < count; ++i) empty_parameters += "&";
    const int status = status_of(empty_parameters);
    EXPECT_TRUE(status == 200 || status == 414) << count << " empty parameters: " << status;
    std::string named_parameters = "/?";
    for (size_t i = 0; i < count; ++i) named_parameters += "a=&";
    const int named = status_of(named_parameters);
    EXPECT_TRUE(named == 200 || named == 414) << count << " parameters a=: " << named;
  }
  // Headers of every size, after the longest target with the most arguments.
  std::string longest = "/?";
  for (int i = 0; i < 63; ++i) longest += "a&";
  longest += std::string(8192 - longest.size(), 'a');
  for (const size_t length :
       {1'000u, 16'000u, 20'000u, 22'000u, 23'000u, 24'000u, 25'000u, 32'000u, 32'700u, 40'000u}) {
    const std::string header = "X-Big: " + std::string(length, 'a') + "\r\n";
    const int status = status_of("/", header);
    EXPECT_TRUE(status == 200 || status == 431) << length << "-byte header: " << status;
    const int after_longest = status_of(longest, header);
    EXPECT_TRUE(after_longest == 200 || after_longest == 431) << length << "-byte header: " << after_longest;
  }
  EXPECT_EQ(status_of(longest), 200);
  EXPECT_EQ(status_of(longest + "a"), 414);
  EXPECT_EQ(status_of("/?q=" + std::string(1000, 'a')), 200);
  EXPECT_EQ(status_of("/?q=" + std::string(100'000, 'a')), 414);
  EXPECT_EQ(status_of("/", "X-Big: " + std::string(40'000, 'a') + "\r\n"), 431);
}

}  // namespace
}  // namespace perf::runtime
