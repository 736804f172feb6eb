// The live endpoint with its default limits under clients that hold connections
// open without finishing a request: a scraper must still get its page at once.
// ctest runs it alone (RUN_SERIAL): it opens and reopens hundreds of sockets.
#include <sys/resource.h>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "export/server.hpp"
#include "http_client.hpp"

namespace perf::runtime {
namespace {

using perf::testing::connection;
using perf::testing::http_result;
using perf::testing::parse_response;
using namespace std::chrono_literals;

constexpr size_t trickling_count = 500;
constexpr size_t half_closed_count = 200;

// Keeps `trickling_count` connections sending a request one byte at a time and
// `half_closed_count` that sent half a request and then shut their side, opening
// a new one whenever the server closes one, until stopped.
class attacker {
 public:
  explicit attacker(uint16_t port) : port_(port) {
    for (size_t i = 0; i < trickling_count; ++i) trickling_.push_back(open_trickling());
    for (size_t i = 0; i < half_closed_count; ++i) half_closed_.push_back(open_half_closed());
    thread_ = std::thread([this] { run(); });
  }
  ~attacker() {
    stop_ = true;
    thread_.join();
  }
  size_t reopened() const { return reopened_; }

 private:
  std::unique_ptr<connection> open_trickling() {
    auto c = std::make_unique<connection>(port_);
    c->send_all("GET /metrics HTTP/1.1\r\nHost: x\r\nX-Slow: ");
    return c;
  }
  std::unique_ptr<connection> open_half_closed() {
    auto c = std::make_unique<connection>(port_);
    c->send_all("GET /metrics HTTP/1.1\r\nHost: x\r\n");
    c->shutdown_write();
    return c;
  }
  void run() {
    while (!stop_) {
      for (auto& c : trickling_)
        if (!c->send_all("x")) c = open_trickling(), ++reopened_;
      for (auto& c : half_closed_)
        if (c->closed_by_server(0ms)) c = open_half_closed(), ++reopened_;
      std::this_thread::sleep_for(100ms);
    }
  }

  uint16_t port_;
  std::vector<std::unique_ptr<connection>> trickling_, half_closed_;
  std::atomic<bool> stop_{false};
  std::atomic<size_t> reopened_{0};
  std::thread thread_;
};

TEST(HostileClients, AScrapeAnswersWithinASecondWhileHundredsOfConnectionsTrickleOrHalfClose) {
  // Both ends of every connection live in this process.
  rlimit files{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &files), 0);
  const rlim_t wanted = 2 * (trickling_count + half_closed_count) + 256;
  if (files.rlim_cur < wanted) {
    if (files.rlim_max < wanted)
      GTEST_SKIP() << "needs " << wanted << " open files; the hard limit is " << files.rlim_max;
    files.rlim_cur = wanted;
    ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &files), 0);
  }
  value_or_problem<listen_address> address = parse_listen_address("127.0.0.1:0");
  ASSERT_EQ(address.problem, "");
  ASSERT_EQ(start_server(address.value, transport_limits{}), "");
  {
    const attacker hostile(address.value.port);
    // One scrape every 100 ms: for 2 s, as the attacker's connections are closed and
    // opened again.
    for (int i = 0; i < 20; ++i) {
      std::this_thread::sleep_for(100ms);
      const auto start = std::chrono::steady_clock::now();
      connection scraper(address.value.port);
      ASSERT_TRUE(scraper.send_all("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
      const http_result r = parse_response(scraper.receive(1s));
      const auto took = std::chrono::steady_clock::now() - start;
      ASSERT_EQ(r.status, 200) << "scrape " << i << " got no page within 1 s (" << hostile.reopened()
                               << " hostile connections reopened so far)";
      ASSERT_LT(took, 1s) << "scrape " << i;
      EXPECT_NE(r.body.find("\nperf_ticklog_events "), std::string::npos) << r.body;
    }
  }
  stop_server();
}

}  // namespace
}  // namespace perf::runtime
