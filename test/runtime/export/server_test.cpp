// The live endpoint served over HTTP in this process (the transport linked in): its
// pages, and what it does with bad, slow, many and vanishing clients.
#include "export/server.hpp"

#include <pthread.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <deque>
#include <map>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "go_pprof.hpp"
#include "harness/http_client.hpp"
#include "harness/thread_named.hpp"
#include "perf/measure.hpp"

namespace perf::runtime {
namespace {

using perf::testing::connection;
using perf::testing::http_get;
using perf::testing::http_result;
using perf::testing::parse_response;
using perf::testing::thread_named;
using namespace std::chrono_literals;

constexpr unsigned counted_line = __LINE__ + 1;
void counted() { PERF_MEASURE("export_test::counted"); }
void before_window() { PERF_MEASURE("export_test::before_window"); }
void in_window() { PERF_MEASURE("export_test::in_window"); }

// A directory for pprof's $HOME, where it keeps the profiles it fetches; removed afterwards.
struct pprof_home {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("perf-export-pprof-" + std::to_string(getpid()));
  pprof_home() { std::filesystem::create_directories(dir); }
  ~pprof_home() { std::filesystem::remove_all(dir); }
};

class Server : public ::testing::Test {
 protected:
  void SetUp() override { start("127.0.0.1:0"); }
  void TearDown() override { stop_server(); }

  void start(const char* where) {
    const value_or_problem<listen_address> parsed = parse_listen_address(where);
    ASSERT_EQ(parsed.problem, "");
    address = parsed.value;
    transport_limits limits;
    // Short enough for the slow-client test, long enough for a client that a loaded
    // machine (or a sanitizer) holds up between connecting and sending.
    limits.idle_timeout_s = 3;
    limits.request_timeout_s = request_timeout_s;
    limits.max_connections = 400;
    limits.max_delayed = 2;
    limits.request_memory = 8192;
    ASSERT_EQ(start_server(address, limits), "");
  }

  http_result get(const std::string& target, const std::string& headers = "", const std::string& method = "GET") {
    return http_get(address.port, target, headers, method,
                    address.kind == listen_address::family::unix_socket ? address.path : "");
  }

  listen_address address;
  static constexpr unsigned request_timeout_s = 2;
};

TEST_F(Server, MetricsCountEveryCall) {
  for (int i = 0; i < 1234; ++i) counted();
  const http_result r = get("/metrics");
  ASSERT_EQ(r.status, 200) << r.head;
  EXPECT_NE(r.head.find("Content-Type: text/plain; version=0.0.4; charset=utf-8"), std::string::npos) << r.head;
  EXPECT_NE(r.body.find("perf_function_calls_total{function=\"export_test::counted\",file=\"" __FILE__ "\",line=\"" +
                        std::to_string(counted_line) + "\"} 1234\n"),
            std::string::npos)
      << r.body;
  const http_result open = get("/metrics", "Accept: application/openmetrics-text; version=1.0.0\r\n");
  EXPECT_NE(open.head.find("Content-Type: application/openmetrics-text; version=1.0.0; charset=utf-8"),
            std::string::npos);
  EXPECT_EQ(open.body.substr(open.body.size() - 6), "# EOF\n");
}

// A page many times the connection's buffer goes out in pieces, chunked to an
// HTTP/1.1 client and to the end of the connection to an HTTP/1.0 one, whole in both.
TEST_F(Server, ALargePageGoesOutWhole) {
  // Registered sites stay registered: they live as long as the process.
  static auto* const names = new std::deque<std::string>;
  static auto* const sites = new std::deque<perf::detail::site>;
  for (unsigned i = 0; i < 400; ++i) {
    names->push_back("export_test::large_page_" + std::string(200, 'x') + std::to_string(i));
    sites->push_back(perf::detail::site{names->back().c_str(), "/src/large_page.cpp", i + 1, 0});
  }
  for (perf::detail::site& site : *sites) perf::detail::basic_scope<true, false> scope(site);
  const auto count_rows = [](const std::string& body) {
    size_t rows = 0;
    for (size_t at = body.find("\nperf_function_calls_total{function=\"export_test::large_page_");
         at != std::string::npos;
         at = body.find("\nperf_function_calls_total{function=\"export_test::large_page_", at + 1))
      ++rows;
    return rows;
  };
  const http_result chunked = get("/metrics", "Accept: application/openmetrics-text; version=1.0.0\r\n");
  ASSERT_EQ(chunked.status, 200) << chunked.head;
  EXPECT_NE(chunked.head.find("Transfer-Encoding: chunked"), std::string::npos) << chunked.head;
  EXPECT_GT(chunked.body.size(), 400u * 20 * 200) << "every row's 20 histogram lines repeat its 200-byte name";
  EXPECT_EQ(count_rows(chunked.body), 400u);
  EXPECT_EQ(chunked.body.substr(chunked.body.size() - 6), "# EOF\n");

  connection old_client(address.port);
  ASSERT_TRUE(old_client.send_all("GET /metrics HTTP/1.0\r\nHost: x\r\n\r\n"));
  const http_result whole = parse_response(old_client.receive());
  ASSERT_EQ(whole.status, 200) << whole.head;
  EXPECT_EQ(whole.head.find("Transfer-Encoding"), std::string::npos) << whole.head;
  EXPECT_EQ(count_rows(whole.body), 400u);
  // The page's last line: the sampler's last family when it samples, else the tick log's.
  const std::string last = whole.body.find("# TYPE perf_samples_total ") != std::string::npos
                               ? "\nperf_samples_dropped_total "
                               : "\nperf_ticklog_dropped_total ";
  const size_t last_line = whole.body.rfind('\n', whole.body.size() - 2);
  EXPECT_EQ(whole.body.compare(last_line, last.size(), last), 0) << whole.body.substr(last_line);
}

TEST_F(Server, ReportsAsTheExitReportWouldPrintThem) {
  for (int i = 0; i < 7; ++i) counted();
  const http_result json = get("/report.json");
  ASSERT_EQ(json.status, 200);
  const nlohmann::json report = nlohmann::json::parse(json.body);
  bool found = false;
  for (const auto& f : report["functions"])
    if (f["name"] == "export_test::counted") found = f["calls"].get<uint64_t>() >= 7;
  EXPECT_TRUE(found) << json.body;
  const http_result text = get("/report");
  ASSERT_EQ(text.status, 200);
  EXPECT_NE(text.body.find("export_test::counted"), std::string::npos) << text.body;
}

TEST_F(Server, WrongPathsMethodsAndArguments) {
  EXPECT_EQ(get("/nope").status, 404);
  EXPECT_EQ(get("/metrics/../../etc/passwd").status, 404);
  const http_result post = get("/metrics", "Content-Length: 4\r\n\r\nabcd", "POST");
  EXPECT_EQ(post.status, 405);
  EXPECT_NE(post.head.find("Allow: GET, HEAD"), std::string::npos) << post.head;
  EXPECT_EQ(get("/metrics", "", "DELETE").status, 405);
  EXPECT_EQ(get("/debug/pprof/profile?seconds=0").status, 400);
  EXPECT_EQ(get("/debug/pprof/profile?seconds=301").status, 400);
  EXPECT_EQ(get("/trace?seconds=1x").status, 400);
  const http_result head = get("/metrics", "", "HEAD");
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.body, "");
}

// Heap sampling is off in this process (PERF_HEAP_SAMPLE unset): the heap's two
// profiles say so, and pprof, fetching one, shows the reason.
TEST_F(Server, TheHeapProfilesAreNotFoundWithHeapSamplingOff) {
  for (const char* path : {"/debug/pprof/heap", "/debug/pprof/allocs"}) {
    const http_result r = get(path);
    EXPECT_EQ(r.status, 404) << path;
    EXPECT_EQ(r.body, "heap sampling is off (PERF_HEAP_SAMPLE is 0 or unset)\n") << path;
  }
  const pprof_home home;
  const perf::testing::probe_result pprof = perf::testing::go_tool_pprof(
      "-top http://127.0.0.1:" + std::to_string(address.port) + "/debug/pprof/heap", home.dir);
  EXPECT_NE(pprof.status, 0);
  EXPECT_NE(pprof.output.find("404 Not Found"), std::string::npos) << pprof.output;
  EXPECT_NE(pprof.output.find("heap sampling is off (PERF_HEAP_SAMPLE is 0 or unset)"), std::string::npos)
      << pprof.output;
}

// Go's heap profiles are cumulative, or, with seconds=N, a delta that is not served here.
TEST_F(Server, TheHeapProfilesRefuseADelta) {
  for (const char* path : {"/debug/pprof/heap?seconds=5", "/debug/pprof/allocs?seconds=5"}) {
    const http_result r = get(path);
    EXPECT_EQ(r.status, 400) << path;
    EXPECT_EQ(r.body, "no delta profile over seconds=N: fetch the profile twice and compare with pprof -diff_base\n")
        << path;
  }
}

TEST_F(Server, OversizedHeadersAreRefused) {
  const http_result r = get("/metrics", "X-Big: " + std::string(64 * 1024, 'a') + "\r\n");
  EXPECT_EQ(r.status, 431) << r.head;
  EXPECT_EQ(get("/metrics").status, 200);
}

// docs/live.md: a connection is kept alive for the next request. Before, every
// response said `Connection: close`.
TEST_F(Server, AConnectionIsKeptAliveForItsNextRequests) {
  connection c(address.port);
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(c.send_all("GET / HTTP/1.1\r\nHost: x\r\n\r\n")) << "request " << i;
    const std::string raw = c.receive_response(2s);
    const http_result r = parse_response(raw);
    ASSERT_EQ(r.status, 200) << "request " << i << ": " << raw;
    EXPECT_EQ(r.head.find("Connection: close"), std::string::npos) << r.head;
  }
  EXPECT_FALSE(c.closed_by_server(100ms));
}

TEST_F(Server, ASlowClientIsDroppedAfterTheTimeoutAndOthersAreServedMeanwhile) {
  connection slow(address.port);
  ASSERT_TRUE(slow.send_all("GET /metrics HTTP/1.1\r\nHost: x\r\n"));  // never finished
  EXPECT_EQ(get("/metrics").status, 200);
  EXPECT_TRUE(slow.closed_by_server(10s));
}

// A request that never ends is closed at its deadline, however steadily its bytes
// trickle in (each byte would restart an idle timeout).
TEST_F(Server, ATricklingRequestIsClosedAtItsDeadline) {
  connection slow(address.port);
  ASSERT_TRUE(slow.send_all("GET /metrics HTTP/1.1\r\nHost: x\r\n"));
  const auto sent = std::chrono::steady_clock::now();
  bool closed = false;
  while (!closed && std::chrono::steady_clock::now() - sent < 8s) {
    closed = slow.closed_by_server(200ms) || !slow.send_all("X");
  }
  EXPECT_TRUE(closed) << "a request that never ends is closed after its " << request_timeout_s << " s";
  EXPECT_EQ(get("/metrics").status, 200);
}

TEST_F(Server, ManyClientsAtOnce) {
  std::vector<int> statuses(24 * 5);
  std::vector<std::thread> clients;
  for (int c = 0; c < 24; ++c)
    clients.emplace_back([&, c] {
      for (int i = 0; i < 5; ++i) {
        const http_result r = get("/metrics");
        statuses[c * 5 + i] = r.status;
        if (r.status != 200) ADD_FAILURE() << "client " << c << ": " << r.head;
      }
    });
  for (std::thread& t : clients) t.join();
  EXPECT_EQ(std::count(statuses.begin(), statuses.end(), 200), 24 * 5);
}

TEST_F(Server, AClientThatLeavesMidResponse) {
  for (int i = 0; i < 200; ++i) counted();
  for (int i = 0; i < 20; ++i) {
    connection c(address.port);
    c.send_all("GET /report HTTP/1.1\r\nHost: x\r\n\r\n");
    EXPECT_EQ(c.receive(10s, 20).size(), 20u);
  }  // closed with most of the response unread
  EXPECT_EQ(get("/metrics").status, 200);
}

TEST_F(Server, ThousandsOfMalformedRequestsAndStillServing) {
  std::mt19937 random(15);
  const std::vector<std::string> shapes = {
      "GET / HTTP/1.1\r\n\r\n",
      "GARBAGE\r\n\r\n",
      "GET /metrics HTTP/9.9\r\nHost: x\r\n\r\n",
      "GET %zz HTTP/1.1\r\nHost: x\r\n\r\n",
      "GET /trace?seconds=%ff%00 HTTP/1.1\r\nHost: x\r\n\r\n",
      "GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
      "GET /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
      "GET /metrics HTTP/1.1\r\n: no name\r\n\r\n",
      "\r\n\r\n\r\n"};
  for (int i = 0; i < 3000; ++i) {
    std::string request = shapes[i % shapes.size()];
    // Flip, drop or insert bytes at random places, NULs and high bytes included.
    for (int k = random() % 4; k > 0; --k) {
      const size_t at = random() % request.size();
      switch (random() % 3) {
        case 0: request[at] = static_cast<char>(random() % 256); break;
        case 1: request.erase(at, 1); break;
        default: request.insert(at, 1, static_cast<char>(random() % 256));
      }
      if (request.empty()) request = "\x00";
    }
    connection c(address.port);
    ASSERT_TRUE(c.connected()) << "request " << i;
    c.send_all(request);
    // Every client leaves at once, one in ten politely (the server keeps an
    // incomplete request's connection until its idle timeout, 3 s here), the others
    // with a reset.
    if (i % 10 == 0) c.shutdown_write();
    else c.reset();
    if (i % 500 == 499) { ASSERT_EQ(get("/metrics").status, 200) << "after request " << i; }
  }
  EXPECT_EQ(get("/metrics").status, 200);
}

TEST_F(Server, AProfileOfTheNextSecondsWhileOtherRequestsAreServed) {
  std::atomic<bool> busy{true}, profile_answered{false};
  std::thread worker([&] {
    while (busy) counted();
  });
  ASSERT_EQ(get("/metrics").status, 200);  // the samples so far symbolized, once
  std::thread profile_client([&] {
    const http_result r = get("/debug/pprof/profile?seconds=3");
    profile_answered = true;
    EXPECT_EQ(r.status, 200) << r.head;
    ASSERT_GE(r.body.size(), 2u);
    EXPECT_EQ(static_cast<unsigned char>(r.body[0]), 0x1f);  // gzip
    EXPECT_EQ(static_cast<unsigned char>(r.body[1]), 0x8b);
  });
  std::this_thread::sleep_for(200ms);
  EXPECT_EQ(get("/metrics").status, 200);
  EXPECT_FALSE(profile_answered) << "a waiting profile must not hold the server up";
  profile_client.join();
  busy = false;
  worker.join();
}

std::string gunzip(const std::string& data) {
  z_stream stream{};
  inflateInit2(&stream, 16 + 15);
  std::string out;
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  int status = Z_OK;
  while (status == Z_OK) {
    char buffer[65536];
    stream.next_out = reinterpret_cast<Bytef*>(buffer);
    stream.avail_out = sizeof buffer;
    status = inflate(&stream, Z_NO_FLUSH);
    out.append(buffer, sizeof buffer - stream.avail_out);
  }
  inflateEnd(&stream);
  EXPECT_EQ(status, Z_STREAM_END);
  return out;
}

// The protobuf wire format's fields of one message: number -> varints and bytes.
struct proto_fields {
  std::multimap<unsigned, uint64_t> varints;
  std::multimap<unsigned, std::string> bytes;
};

proto_fields decode(const std::string& message) {
  proto_fields fields;
  size_t at = 0;
  const auto varint = [&] {
    uint64_t value = 0;
    for (unsigned shift = 0; at < message.size(); shift += 7) {
      const auto byte = static_cast<unsigned char>(message[at++]);
      value |= uint64_t{byte & 0x7fu} << shift;
      if ((byte & 0x80) == 0) break;
    }
    return value;
  };
  while (at < message.size()) {
    const uint64_t tag = varint();
    const auto number = static_cast<unsigned>(tag >> 3);
    if ((tag & 7) == 0) {
      fields.varints.emplace(number, varint());
    } else if ((tag & 7) == 2) {
      const uint64_t length = varint();
      fields.bytes.emplace(number, message.substr(at, length));
      at += length;
    } else {
      ADD_FAILURE() << "wire type " << (tag & 7);
      break;
    }
  }
  return fields;
}

// Each sample's labels, "key=value" (a number's value in decimal), in order.
std::vector<std::vector<std::string>> sample_labels(const std::string& profile) {
  const proto_fields top = decode(profile);
  std::vector<std::string> strings;
  for (auto [it, end] = top.bytes.equal_range(6); it != end; ++it) strings.push_back(it->second);  // string_table
  std::vector<std::vector<std::string>> samples;
  for (auto [it, end] = top.bytes.equal_range(2); it != end; ++it) {  // sample
    samples.emplace_back();
    const proto_fields sample = decode(it->second);
    for (auto [label, last] = sample.bytes.equal_range(3); label != last; ++label) {
      const proto_fields l = decode(label->second);
      const std::string key = strings.at(l.varints.find(1)->second);
      const auto str = l.varints.find(2);
      samples.back().push_back(
          key + "=" + (str != l.varints.end() ? strings.at(str->second) : std::to_string(l.varints.find(3)->second)));
    }
  }
  return samples;
}

// pprof's labels carry each sample's thread id and the thread's name, so that a
// profile can be filtered by `-tagfocus thread_name=...`, the same from run to run.
TEST_F(Server, AProfileLabelsEachSampleWithItsThreadsName) {
  std::atomic<bool> busy{true};
  std::atomic<long> worker_tid{0};
  std::thread worker([&] {
    pthread_setname_np(pthread_self(), "prof-worker");
    worker_tid = syscall(SYS_gettid);
    while (busy) counted();
  });
  const http_result r = get("/debug/pprof/profile?seconds=1");
  busy = false;
  worker.join();
  ASSERT_EQ(r.status, 200) << r.head;
  // Go's headers: a download named after the profile.
  EXPECT_NE(r.head.find("Content-Type: application/octet-stream\r\n"), std::string::npos) << r.head;
  EXPECT_NE(r.head.find("Content-Disposition: attachment; filename=\"profile\"\r\n"), std::string::npos) << r.head;
  const std::string wanted_id = "thread=" + std::to_string(worker_tid);
  size_t named = 0, worker_samples = 0;
  for (const std::vector<std::string>& labels : sample_labels(gunzip(r.body))) {
    if (std::find(labels.begin(), labels.end(), wanted_id) == labels.end()) continue;
    ++worker_samples;
    named += std::count(labels.begin(), labels.end(), "thread_name=prof-worker");
  }
  ASSERT_GT(worker_samples, 0u) << "the busy thread was sampled";
  EXPECT_EQ(named, worker_samples) << "every sample of the worker names it";
}

TEST_F(Server, ATraceHoldsOnlyTheEventsOfItsWindow) {
  before_window();
  std::thread tracer([&] {
    const http_result r = get("/trace?seconds=1");
    ASSERT_EQ(r.status, 200) << r.head;
    EXPECT_NE(r.head.find("Transfer-Encoding: chunked"), std::string::npos) << "written a thread at a time: " << r.head;
    const nlohmann::json trace = nlohmann::json::parse(r.body);
    std::set<std::string> names;
    for (const auto& e : trace["traceEvents"])
      if (e["ph"] == "X") names.insert(e["name"].get<std::string>());
    EXPECT_EQ(names.count("export_test::in_window"), 1u) << r.body;
    EXPECT_EQ(names.count("export_test::before_window"), 0u) << r.body;
  });
  std::this_thread::sleep_for(300ms);
  in_window();
  tracer.join();
}

TEST_F(Server, TooManyWaitingRepliesAreRefused) {
  std::vector<std::thread> waiting;
  for (int i = 0; i < 2; ++i)
    waiting.emplace_back([&] { EXPECT_EQ(get("/debug/pprof/profile?seconds=2").status, 200); });
  std::this_thread::sleep_for(300ms);
  const http_result refused = get("/debug/pprof/profile?seconds=1");
  EXPECT_EQ(refused.status, 503);
  EXPECT_EQ(refused.body, "too many profiles or traces under way; try again later\n");
  for (std::thread& t : waiting) t.join();
}

// A trace copies every thread's tick ring: one at a time, the others refused at
// once, and the other pages answered meanwhile.
TEST_F(Server, OneTraceAtATimeAndTheOtherPagesMeanwhile) {
  std::thread first([&] { EXPECT_EQ(get("/trace?seconds=2").status, 200); });
  std::this_thread::sleep_for(300ms);
  std::vector<std::thread> more;
  for (int i = 0; i < 4; ++i)
    more.emplace_back([&] {
      const http_result r = get("/trace?seconds=1");
      EXPECT_EQ(r.status, 503);
      EXPECT_EQ(r.body, "another /trace is under way; one at a time\n");
    });
  for (std::thread& t : more) t.join();
  EXPECT_EQ(get("/metrics").status, 200);
  EXPECT_EQ(get("/").status, 200);
  first.join();
  EXPECT_EQ(get("/trace?seconds=1").status, 200) << "the first trace's reply gave its place back";
}

TEST_F(Server, TheServerThreadIsNotInWhatItServes) {
  for (int i = 0; i < 10; ++i) ASSERT_EQ(get("/report.json").status, 200);
  const long server_tid = thread_named("perf-export");
  ASSERT_NE(server_tid, 0);
  const nlohmann::json report = nlohmann::json::parse(get("/report.json").body);
  for (const auto& t : report["threads"]) EXPECT_NE(t["tid"].get<long>(), server_tid);
  for (const auto& t : report["allocations"]["threads"]) EXPECT_NE(t["tid"].get<long>(), server_tid);
  for (const auto& t : report["samples"]["threads"]) EXPECT_NE(t["tid"].get<long>(), server_tid);
}

TEST_F(Server, AForkedChildExitsWithoutTheParentsServerAndTheParentServesOn) {
  const pid_t child = fork();
  if (child == 0) {
    stop_server();  // what the child's exit does: it must not wait for a thread it does not have
    _exit(0);
  }
  int status = -1;
  for (int i = 0; i < 100 && waitpid(child, &status, WNOHANG) == 0; ++i) std::this_thread::sleep_for(50ms);
  if (status == -1) kill(child, SIGKILL);
  EXPECT_EQ(status, 0) << "the child did not exit by itself";
  EXPECT_EQ(get("/metrics").status, 200);
}

TEST_F(Server, UnixSocketsAndIPv6) {
  stop_server();
  const std::string path = ::testing::TempDir() + "perf-export-" + std::to_string(getpid()) + ".sock";
  start(path.c_str());
  EXPECT_EQ(get("/metrics").status, 200);
  stop_server();
  EXPECT_NE(access(path.c_str(), F_OK), 0) << "the socket the server made is removed when it stops";
  start("[::1]:0");
  int fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in6 a{};
  a.sin6_family = AF_INET6;
  a.sin6_port = htons(address.port);
  a.sin6_addr = in6addr_loopback;
  ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  const std::string request = "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
  ASSERT_EQ(write(fd, request.data(), request.size()), static_cast<ssize_t>(request.size()));
  char head[12] = {};
  ASSERT_EQ(read(fd, head, sizeof head - 1), 11);
  EXPECT_STREQ(head, "HTTP/1.1 20");
  close(fd);
}

}  // namespace
}  // namespace perf::runtime
