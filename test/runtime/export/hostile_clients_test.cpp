// The live endpoint with its default limits under clients that hold connections
// open without finishing a request, or reconnect in a loop: a scraper, or a fresh
// client, must still get its page at once. ctest runs it alone (RUN_SERIAL): it
// opens and reopens hundreds of sockets.
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/resource.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "export/server.hpp"
#include "harness/http_client.hpp"
#include "perf/measure.hpp"

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

// Both ends of `connections` connections live in this process: raises the limit of
// open files to what they take; false when the hard limit is below.
bool room_for_connections(size_t connections) {
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) != 0) return false;
  const rlim_t wanted = 2 * connections + 256;
  if (files.rlim_cur >= wanted) return true;
  if (files.rlim_max < wanted) return false;
  files.rlim_cur = wanted;
  return setrlimit(RLIMIT_NOFILE, &files) == 0;
}

TEST(HostileClients, AScrapeAnswersWithinASecondWhileHundredsOfConnectionsTrickleOrHalfClose) {
  if (!room_for_connections(trickling_count + half_closed_count))
    GTEST_SKIP() << "needs more open files than the hard limit";
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

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
// Each request costs the sanitized server five to ten times more.
constexpr size_t scraper_count = 200;
constexpr size_t service_threads = 40;
#else
constexpr size_t scraper_count = 1000;
constexpr size_t service_threads = 200;
#endif

void served() { PERF_MEASURE("hostile_clients_test::served"); }

// A service's threads: each has made a measured call and waits until this goes, so
// that /metrics and the report have their rows to read (a scrape then costs what it
// costs in a service).
class service {
 public:
  explicit service(size_t threads) {
    for (size_t i = 0; i < threads; ++i)
      threads_.emplace_back([this] {
        served();
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [this] { return stopping_; });
      });
  }
  ~service() {
    {
      const std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

// `scraper_count` clients scraping /metrics in a loop, each on a new connection as
// soon as the previous one's response is in (or the server closed it), driven by
// one thread until stopped.
class looping_scrapers {
 public:
  explicit looping_scrapers(uint16_t port) : port_(port), sockets_(scraper_count, -1) {
    for (size_t i = 0; i < sockets_.size(); ++i) open_one(i);
    thread_ = std::thread([this] { run(); });
  }
  ~looping_scrapers() {
    stop_ = true;
    thread_.join();
    for (const int fd : sockets_) ::close(fd);
    ::close(epoll_);
  }
  size_t responses() const { return responses_; }
  size_t pages() const { return pages_; }  // responses with status 200

 private:
  void open_one(size_t i) {
    const int fd = sockets_[i] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port_);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    static const char request[] = "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0)
      (void)!::send(fd, request, sizeof request - 1, MSG_NOSIGNAL);
    fcntl(fd, F_SETFL, O_NONBLOCK);
    epoll_event watched{};
    watched.events = EPOLLIN;
    watched.data.u64 = i;
    epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &watched);
  }
  // An epoll set, not poll(): the driver must leave the CPU to the server.
  void run() {
    std::vector<epoll_event> ready(64);
    char buffer[65536];
    while (!stop_) {
      const int n = epoll_wait(epoll_, ready.data(), static_cast<int>(ready.size()), 50);
      for (int e = 0; e < n; ++e) {
        const size_t i = ready[static_cast<size_t>(e)].data.u64;
        const ssize_t got = ::recv(sockets_[i], buffer, sizeof buffer, 0);
        const std::string_view text(buffer, got > 0 ? static_cast<size_t>(got) : 0);
        if (text.substr(0, 9) == "HTTP/1.1 ") ++responses_;
        if (text.substr(0, 13) == "HTTP/1.1 200 ") ++pages_;
        if (got > 0 || (got < 0 && errno == EAGAIN)) continue;
        ::close(sockets_[i]);  // the response is in, or the server closed it: again
        open_one(i);
      }
    }
  }

  uint16_t port_;
  int epoll_ = epoll_create1(EPOLL_CLOEXEC);
  std::vector<int> sockets_;
  std::atomic<bool> stop_{false};
  std::atomic<size_t> responses_{0}, pages_{0};
  std::thread thread_;
};

// A service of 200 threads, 1,000 scrapers reconnecting in a loop: before, a fresh
// GET / waited behind them all (a scrape of the service costs milliseconds), and 0
// of 20 were answered within 1 s; the connection cap also closed connections just
// accepted, their requests unread. Now the pages that read every thread take at most
// half of the server's time, and the rest answers the others at once.
TEST(HostileClients, AFreshClientIsServedWithinASecondWhileAThousandScrapersReconnectInALoop) {
  if (!room_for_connections(scraper_count)) GTEST_SKIP() << "needs more open files than the hard limit";
  const service threads(service_threads);
  value_or_problem<listen_address> address = parse_listen_address("127.0.0.1:0");
  ASSERT_EQ(address.problem, "");
  ASSERT_EQ(start_server(address.value, transport_limits{}), "");
  {
    const looping_scrapers scrapers(address.value.port);
    // The scrapers' loop under way, and the burst of pages served whole spent (a
    // second of nothing but pages).
    std::this_thread::sleep_for(1500ms);
    int served = 0;
    for (int i = 0; i < 20; ++i) {
      const auto start = std::chrono::steady_clock::now();
      connection fresh(address.value.port);
      fresh.send_all("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      const http_result r = parse_response(fresh.receive(1s));
      const auto took = std::chrono::steady_clock::now() - start;
      if (r.status == 200 && took < 1s) ++served;
      else
        ADD_FAILURE() << "fresh client " << i << ": status " << r.status << " after "
                      << std::chrono::duration_cast<std::chrono::milliseconds>(took).count() << " ms";
    }
    EXPECT_EQ(served, 20) << scrapers.responses() << " scrapes answered meanwhile";
    EXPECT_GT(scrapers.pages(), 20u) << "the scrapers got pages too";
  }
  stop_server();
}

}  // namespace
}  // namespace perf::runtime
