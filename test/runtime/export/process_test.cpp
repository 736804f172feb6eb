// The live endpoint as a program gets it: the shared libperfrt and perf::alloc, and
// PERF_LISTEN set (or not) in the environment before the program starts. ctest runs
// NoListenNothingLoaded without PERF_LISTEN and the others with PERF_LISTEN set to
// the Unix socket PERF_TEST_SOCKET.

#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "harness/http_client.hpp"
#include "harness/thread_named.hpp"
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

// PERF_LISTEN naming the Unix socket another process listens on: that process's
// socket is left alone, the program says so in one line and runs on.
TEST(Process, ALiveSocketOfAnotherProcessGivesOneLineAndTheProgramRunsOn) {
  const std::string path = std::string(PERF_TEST_SOCKET) + ".other";
  unlink(path.c_str());
  const int other = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
  ASSERT_EQ(bind(other, reinterpret_cast<sockaddr*>(&address), sizeof address), 0) << std::strerror(errno);
  ASSERT_EQ(listen(other, 4), 0);
  // This test program again, with PERF_LISTEN at that socket, running no test.
  const std::string command = "PERF_LISTEN='" + path + "' PERF_REPORT=off /proc/" + std::to_string(getpid()) +
                              "/exe --gtest_filter=None 2>&1 >/dev/null";
  FILE* child = popen(command.c_str(), "r");
  ASSERT_NE(child, nullptr);
  std::string said;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, child) != nullptr) said += buffer;
  const int status = pclose(child);
  EXPECT_EQ(said,
            "perf: cannot listen on " + path + ": another process is listening there; the live endpoint is off\n");
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  const int client = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  EXPECT_EQ(connect(client, reinterpret_cast<sockaddr*>(&address), sizeof address), 0)
      << "the other socket still listens";
  close(client);
  close(other);
  unlink(path.c_str());
}

}  // namespace
