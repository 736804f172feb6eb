// The live endpoint as a program gets it: the shared libperfrt and perf::alloc, and
// PERF_LISTEN set (or not) in the environment before the program starts. ctest runs
// NoListenNothingLoaded without PERF_LISTEN and the others with PERF_LISTEN set to
// the Unix socket PERF_TEST_SOCKET.

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "http_client.hpp"
#include "thread_named.hpp"
#include "perf/measure.hpp"

namespace {

using perf::testing::thread_named;

std::string maps() {
  std::ifstream in("/proc/self/maps");
  std::stringstream all;
  all << in.rdbuf();
  return all.str();
}

// The server thread, once it has started and named itself: the runtime starts it
// at start-up without waiting for it, so on a loaded machine main() can come first.
long server_thread() {
  for (int i = 0; i < 500; ++i) {
    if (const long tid = thread_named("perf-export")) return tid;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return 0;
}

void measured() { PERF_MEASURE("process_test::measured"); }

perf::testing::http_result get(const std::string& target) {
  return perf::testing::http_get(0, target, "", "GET", PERF_TEST_SOCKET);
}

TEST(Process, NoListenNothingLoaded) {
  ASSERT_EQ(std::getenv("PERF_LISTEN"), nullptr);
  measured();
  const std::string mapped = maps();
  EXPECT_NE(mapped.find("libperfrt.so"), std::string::npos);
  EXPECT_EQ(mapped.find("libperfexport"), std::string::npos);
  EXPECT_EQ(mapped.find("libmicrohttpd"), std::string::npos);
  EXPECT_EQ(thread_named("perf-export"), 0);
}

TEST(Process, ListenLoadsTheTransportBesideTheRuntime) {
  const std::string mapped = maps();
  const size_t runtime = mapped.find("/libperfrt.so");
  const size_t transport = mapped.find("/libperfexport.so");
  ASSERT_NE(runtime, std::string::npos);
  ASSERT_NE(transport, std::string::npos);
  auto directory = [&](size_t at) {
    const size_t start = mapped.rfind(' ', at) + 1;
    return mapped.substr(start, at - start);
  };
  EXPECT_EQ(directory(transport), directory(runtime));
  EXPECT_NE(server_thread(), 0);
}

TEST(Process, TheServerThreadsAllocationsAndSamplesAreNotServed) {
  ASSERT_NE(server_thread(), 0);
  for (int i = 0; i < 1000; ++i) measured();
  for (int i = 0; i < 30; ++i) ASSERT_EQ(get("/report.json").status, 200);  // the server allocates plenty
  const long server = thread_named("perf-export");
  ASSERT_NE(server, 0);
  const nlohmann::json report = nlohmann::json::parse(get("/report.json").body);
  ASSERT_EQ(report["allocations"]["counting"], "interposed");
  EXPECT_FALSE(report["allocations"]["threads"].empty());
  for (const char* rows : {"threads"})
    for (const auto& t : report[rows]) EXPECT_NE(t["tid"].get<long>(), server);
  for (const auto& t : report["allocations"]["threads"]) EXPECT_NE(t["tid"].get<long>(), server);
  for (const auto& t : report["samples"]["threads"]) EXPECT_NE(t["tid"].get<long>(), server);
  const std::string metrics = get("/metrics").body;
  EXPECT_EQ(metrics.find("tid=\"" + std::to_string(server) + "\""), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("perf_function_calls_total{function=\"process_test::measured\""), std::string::npos);
}

}  // namespace
