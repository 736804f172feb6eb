// The live endpoint's costs (docs/performance.md, "The live endpoint"), in one run:
//   render      /metrics for 10,000 functions x 16 threads: its snapshot (served_metrics)
//               and the text (target: both in at most 5 ms), the text written as the server writes
//               it, piece by piece into one 32 KiB buffer; beside it, copying as many
//               bytes through that buffer; CPU time of the rendering thread (the VM's
//               two cores are shared: wall time counts the neighbours)
//   scrape      the server thread's CPU time per /metrics request over HTTP, as a share
//               of one second (a scrape every second; target at most 0.5%), for a
//               typical service (200 functions x 4 threads; after the process's first 50
//               scrapes, printed apart: the first escapes every label) and for the
//               10,000 x 16 case (after one scrape that escapes the new labels)
//   probe       a measured call's CPU time while a client scrapes /metrics ten times a
//               second / without a scraper, the median of paired rounds; beside it the
//               same ratio between two rounds without, which is the noise
//   symbols     the first report snapshot (/report: it symbolizes every sampled address)
//               / the next (only new addresses)
//   trace       one /trace of 32 threads whose rings are full of events of its window:
//               how much the process's peak memory grows (the client counts the bytes
//               and keeps none), and the slowest answer to / a client asks for every
//               20 ms meanwhile
// Each target's line says "met" or "NOT MET".
// Run: build/bench/export_bench
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "export/metrics.hpp"
#include "export/served_snapshot.hpp"
#include "export/server.hpp"
#include "harness/http_client.hpp"
#include "harness/thread_named.hpp"
#include "perf/measure.hpp"
#include "thread_cpu_time.hpp"

namespace {

using namespace std::chrono_literals;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Sites made at run time, as many as a large program has.
std::vector<perf::detail::site*> make_sites(size_t first, size_t count) {
  std::vector<perf::detail::site*> sites;
  for (size_t i = first; i < first + count; ++i) {
    const std::string name = "bench::module_" + std::to_string(i / 100) + "::function_" + std::to_string(i);
    sites.push_back(
        new perf::detail::site{strdup(name.c_str()), "/src/bench/module.cpp", static_cast<unsigned>(i + 1), 0});
  }
  return sites;
}

// `threads` threads, each calling every site `calls` times, then exiting (their
// statistics stay).
void call_on_threads(const std::vector<perf::detail::site*>& sites, int threads, int calls) {
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&] {
      for (int c = 0; c < calls; ++c)
        for (perf::detail::site* s : sites) perf::detail::basic_scope<true, false> scope(*s);
    });
  for (std::thread& w : workers) w.join();
}

// The CPU time a thread of this process has used, from /proc (schedstat: ns on CPU).
double thread_cpu_seconds_of(long tid) {
  std::ifstream in("/proc/self/task/" + std::to_string(tid) + "/schedstat");
  double ns = 0;
  in >> ns;
  return ns * 1e-9;
}

// The server thread, once it has named itself.
long server_thread() {
  for (int tries = 0; tries < 1000; ++tries) {
    if (const long tid = perf::testing::thread_named("perf-export")) return tid;
    std::this_thread::sleep_for(1ms);
  }
  std::fprintf(stderr, "no perf-export thread\n");
  std::exit(1);
}

// The server thread's CPU seconds per /metrics request, over `scrapes` requests.
double scrape_cpu_seconds(uint16_t port, int scrapes) {
  const long tid = server_thread();
  const double before = thread_cpu_seconds_of(tid);
  for (int i = 0; i < scrapes; ++i)
    if (perf::testing::http_get(port, "/metrics").status != 200) std::fprintf(stderr, "scrape failed\n");
  return (thread_cpu_seconds_of(tid) - before) / scrapes;
}

// CPU ns per measured call on this thread, over `calls` calls.
double probe_ns(perf::detail::site& site, int calls) {
  const double start = thread_cpu_seconds();
  for (int i = 0; i < calls; ++i) perf::detail::basic_scope<true, false> scope(site);
  return (thread_cpu_seconds() - start) * 1e9 / calls;
}

const char* verdict(bool met) { return met ? "met" : "NOT MET"; }

// What the server's connection buffer holds at most with the default limits.
constexpr size_t piece_bytes = 32 * 1024;

struct page_cost {
  double snapshot_ms = 0;
  double text_ms = 0;
  size_t bytes = 0;
};

// What /metrics costs without HTTP: its snapshot (served_metrics), and the text alone (medians).
page_cost page_cost_of(int rounds) {
  std::vector<double> snapshot_ms, text_ms;
  page_cost cost;
  std::vector<char> piece(piece_bytes);
  for (int i = 0; i < rounds; ++i) {
    double start = thread_cpu_seconds();
    perf::runtime::metrics_content content = perf::runtime::served_metrics();
    snapshot_ms.push_back((thread_cpu_seconds() - start) * 1e3);
    start = thread_cpu_seconds();
    perf::runtime::metrics_page page(std::move(content), perf::runtime::metrics_format::prometheus);
    cost.bytes = 0;
    while (const size_t n = page.read(piece.data(), piece.size())) cost.bytes += n;
    text_ms.push_back((thread_cpu_seconds() - start) * 1e3);
  }
  cost.snapshot_ms = median(snapshot_ms);
  cost.text_ms = median(text_ms);
  return cost;
}

// Copying `bytes` through a buffer of the server's size (median of `rounds`, ms):
// what no writer of a page that long can go below.
double copy_ms(size_t bytes, int rounds) {
  std::vector<double> ms;
  std::vector<char> piece(piece_bytes);
  const std::string source(bytes, 'x');
  for (int i = 0; i < rounds; ++i) {
    const double start = thread_cpu_seconds();
    for (size_t at = 0; at < source.size(); at += piece.size()) {
      std::memcpy(piece.data(), source.data() + at, std::min(piece.size(), source.size() - at));
      asm volatile("" : : "r"(piece.data()) : "memory");
    }
    ms.push_back((thread_cpu_seconds() - start) * 1e3);
  }
  return median(ms);
}

// The process's resident memory in kB, now ("VmRSS:") or at its peak ("VmHWM:").
long memory_kb(const char* key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key, 0) == 0) return std::atol(line.c_str() + std::strlen(key));
  return -1;
}

void trace_cost(uint16_t port) {
  perf::detail::site site{"bench::traced", "/src/bench/trace.cpp", 1, 0};
  std::atomic<bool> window_open{false}, done{false};
  std::atomic<int> rings_made{0};
  std::vector<std::thread> threads;
  // 40,000 calls, 80,000 events, fill a ring of 65,536: once before the window (the
  // ring's memory is the program's, not the trace's), once in it.
  const auto fill_ring = [&] {
    for (int call = 0; call < 40000; ++call) perf::detail::basic_scope<true, false> scope(site);
  };
  for (int i = 0; i < 32; ++i)
    threads.emplace_back([&] {
      fill_ring();
      ++rings_made;
      while (!window_open) std::this_thread::sleep_for(1ms);
      fill_ring();
      while (!done) std::this_thread::sleep_for(10ms);
    });
  while (rings_made < 32) std::this_thread::sleep_for(1ms);
  std::ofstream("/proc/self/clear_refs") << "5";  // the peak starts again from now
  const long before_kb = memory_kb("VmRSS:");
  size_t trace_bytes = 0;
  std::thread tracer([&] {
    perf::testing::connection c(port);
    c.send_all("GET /trace?seconds=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    for (std::string piece; !(piece = c.receive(10s, 1 << 16)).empty();) trace_bytes += piece.size();
  });
  std::this_thread::sleep_for(100ms);
  window_open = true;
  double slowest_ms = 0;
  for (int i = 0; i < 150; ++i) {
    const auto start = std::chrono::steady_clock::now();
    if (perf::testing::http_get(port, "/").status != 200) std::fprintf(stderr, "/ failed\n");
    slowest_ms = std::max(slowest_ms,
                          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    std::this_thread::sleep_for(20ms);
  }
  tracer.join();
  done = true;
  for (std::thread& t : threads) t.join();
  std::printf("trace of 32 full rings (%.0f MB of JSON): peak memory +%.0f MB; / answered within %.1f ms meanwhile\n",
              static_cast<double>(trace_bytes) / 1e6, static_cast<double>(memory_kb("VmHWM:") - before_kb) / 1024,
              slowest_ms);
}

}  // namespace

int main() {
  perf::runtime::listen_address address;
  if (const std::string problem = perf::runtime::start_server(address, perf::runtime::transport_limits{});
      !problem.empty()) {
    std::fprintf(stderr, "%s\n", problem.c_str());
    return 1;
  }
  const uint16_t port = address.port;

  // A typical service: 200 functions on 4 threads.
  call_on_threads(make_sites(0, 200), 4, 50);
  // Symbolizing the samples: every address the first time, only new ones after.
  double start = thread_cpu_seconds();
  perf::runtime::served_snapshot();
  const double first_ms = (thread_cpu_seconds() - start) * 1e3;
  start = thread_cpu_seconds();
  perf::runtime::served_snapshot();
  const double second_ms = (thread_cpu_seconds() - start) * 1e3;
  std::printf("report snapshot, first %.2f ms (symbolizes), second %.2f ms: %.1f times cheaper\n", first_ms, second_ms,
              first_ms / second_ms);
  // The first scrapes of the process, apart (the first escapes every label once; /metrics
  // symbolizes nothing).
  const double first_scrapes = scrape_cpu_seconds(port, 50);
  const double typical_scrape = scrape_cpu_seconds(port, 50);
  const page_cost typical = page_cost_of(11);
  std::printf(
      "scrape every second, 200 functions x 4 threads: %.3f ms of the server thread's CPU = %.3f%% of a "
      "second (target <= 0.5%%: %s, %.2f of the target); snapshot %.3f ms, text %.3f ms (%.0f kB); the first 50 "
      "scrapes: %.3f ms each\n",
      typical_scrape * 1e3, typical_scrape * 100, verdict(typical_scrape <= 0.005), typical_scrape / 0.005,
      typical.snapshot_ms, typical.text_ms, static_cast<double>(typical.bytes) / 1e3, first_scrapes * 1e3);

  // The probe with a scraper at 10 Hz and without, in paired rounds.
  perf::detail::site probe_site{"bench::probe", "/src/bench/probe.cpp", 1, 0};
  std::atomic<bool> scraping{false}, done{false};
  std::thread scraper([&] {
    while (!done) {
      if (scraping) perf::testing::http_get(port, "/metrics");
      std::this_thread::sleep_for(100ms);
    }
  });
  std::vector<double> with_scraper, without_noise;
  constexpr int calls = 2000000;
  probe_ns(probe_site, calls);  // warm-up
  for (int round = 0; round < 15; ++round) {
    scraping = false;
    const double off_a = probe_ns(probe_site, calls);
    scraping = true;
    std::this_thread::sleep_for(150ms);
    const double on = probe_ns(probe_site, calls);
    scraping = false;
    std::this_thread::sleep_for(150ms);
    const double off_b = probe_ns(probe_site, calls);
    with_scraper.push_back(on / ((off_a + off_b) / 2));
    without_noise.push_back(off_b / off_a);
  }
  done = true;
  scraper.join();
  std::printf(
      "probe with a scraper at 10 Hz / without: %.3f (median of 15 rounds); without / without: %.3f; "
      "probe %.1f ns\n",
      median(with_scraper), median(without_noise), probe_ns(probe_site, calls));

  // The large case: 10,000 functions on 16 threads.
  call_on_threads(make_sites(200, 9800), 16, 1);
  const page_cost large = page_cost_of(11);
  const double large_ms = large.snapshot_ms + large.text_ms;
  std::printf(
      "render, 10,000 functions x 16 threads: snapshot + text %.2f ms (target <= 5 ms: %s, %.2f of the target): "
      "snapshot %.2f ms, text %.2f ms (%.1f MB in %zu KiB pieces, %.1f times the time of copying as many bytes "
      "through that buffer) (medians of 11)\n",
      large_ms, verdict(large_ms <= 5), large_ms / 5, large.snapshot_ms, large.text_ms,
      static_cast<double>(large.bytes) / 1e6, piece_bytes / 1024, large.text_ms / copy_ms(large.bytes, 11));
  perf::testing::http_get(port, "/metrics");  // escapes the 9,800 new functions' labels
  const double large_scrape = scrape_cpu_seconds(port, 10);
  std::printf("scrape every second, 10,000 functions x 16 threads: %.2f ms of CPU = %.3f%% of a second\n",
              large_scrape * 1e3, large_scrape * 100);
  trace_cost(port);
  perf::runtime::stop_server();
  return 0;
}
