// The heap's two pprof pages served over HTTP by a process that samples its heap
// (ctest sets PERF_HEAP_SAMPLE for this program), fetched and read by go tool pprof.
#include <gtest/gtest.h>

#include "export/server.hpp"
#include "go_pprof.hpp"
#include "harness/http_client.hpp"

namespace heap_endpoint_test {

char* volatile escaped;  // every block escapes, so no compiler removes a new/delete pair
char* kept[64];          // no destructor: still reachable when LeakSanitizer looks, after the static ones

// 32 MiB in 64 KiB blocks, each freed at once: this process's heaviest allocator by far.
[[gnu::noinline]] void churn() {
  for (int i = 0; i < 512; ++i) {
    escaped = new char[65536];
    delete[] escaped;
  }
}

// 4 MiB kept: the most live bytes of this process.
[[gnu::noinline]] void keep() {
  for (char*& block : kept) block = new char[65536];
}

}  // namespace heap_endpoint_test

namespace perf::runtime {
namespace {

using perf::testing::go_tool_pprof;
using perf::testing::http_get;
using perf::testing::http_result;
using perf::testing::pprof_top_rows;
using perf::testing::probe_result;

class ServerHeap : public perf::testing::ProbeTest {
 protected:
  void SetUp() override {
    ProbeTest::SetUp();
    const value_or_problem<listen_address> parsed = parse_listen_address("127.0.0.1:0");
    ASSERT_EQ(parsed.problem, "");
    address = parsed.value;
    ASSERT_EQ(start_server(address, transport_limits{}), "");
  }
  void TearDown() override {
    stop_server();
    ProbeTest::TearDown();
  }
  std::string url(const std::string& path) const { return "http://127.0.0.1:" + std::to_string(address.port) + path; }

  listen_address address;
};

TEST_F(ServerHeap, GoToolPprofReadsTheHeapAndTheAllocsPages) {
  heap_endpoint_test::churn();
  heap_endpoint_test::keep();
  struct page {
    const char* path;
    const char* name;
    const char* type;
    const char* first;
  };
  for (const page& p : {page{"/debug/pprof/allocs", "allocs", "alloc_space", "heap_endpoint_test::churn"},
                        page{"/debug/pprof/heap", "heap", "inuse_space", "heap_endpoint_test::keep"}}) {
    const http_result r = http_get(address.port, p.path);
    ASSERT_EQ(r.status, 200) << p.path << "\n" << r.head << r.body;
    EXPECT_NE(r.head.find("Content-Type: application/octet-stream\r\n"), std::string::npos) << r.head;
    EXPECT_NE(r.head.find("Content-Disposition: attachment; filename=\"" + std::string(p.name) + "\"\r\n"),
              std::string::npos)
        << r.head;
    const probe_result pprof = go_tool_pprof("-top " + url(p.path), dir);
    ASSERT_EQ(pprof.status, 0) << pprof.output;
    EXPECT_NE(pprof.output.find("Type: " + std::string(p.type) + "\n"), std::string::npos) << pprof.output;
    const auto rows = pprof_top_rows(pprof.output);
    ASSERT_FALSE(rows.empty()) << pprof.output;
    EXPECT_EQ(rows[0].name, p.first) << pprof.output;
  }
}

}  // namespace
}  // namespace perf::runtime
