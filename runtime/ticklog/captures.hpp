// Tail-latency captures (PERF_CAPTURE): a call longer than its rule's threshold has
// the tick log's writer thread (trace_stream.hpp), which sees every call end, hand
// the call and the list of rings to a capture thread of its own, which writes every
// thread's events from the window before the call's end (PERF_CAPTURE_WINDOW, and at
// least the whole call) to the moment it reads them, with the enters of the scopes
// open at the window's start, to PERF_CAPTURE_DIR/capture-<pid>-<n>.pftrace, as the
// trace at exit is written (internal/perfetto_trace.hpp), at most PERF_CAPTURE_RATE a
// minute. The rings are only read: the exit trace still has their contents. A
// capture holds what the rings still hold when the capture thread reads them: a busy
// thread whose ring holds less than the window shows from its first event kept.
//
// The writer's part of a capture is a copy of the list of rings and of the sites'
// names, so that a capture never delays its draining of the rings (the window and the
// margins read beyond it may hold millions of events). Memory: the captures waiting
// (max_waiting, each its lists), and the one being written: its events (96 bytes
// each, at most every ring's capacity), one ring's read at a time, and its encoding.
#ifndef PERF_RUNTIME_TICKLOG_CAPTURES_HPP
#define PERF_RUNTIME_TICKLOG_CAPTURES_HPP

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/sites.hpp"
#include "ticklog/capture_config.hpp"
#include "ticklog/rings.hpp"
#include "ticklog/slow_calls.hpp"
#include "ticklog/ticklog.hpp"

namespace perf::runtime {

// A ring a capture reads, and its thread.
struct capture_source {
  const ring_record* ring = nullptr;
  long tid = 0;
  uint64_t uses = 0;  // the ring's ring_record::uses then: it changes when the ring passes on
  std::string name;
  bool quiescent = false;  // its thread has exited
};

// A capture written, as the report lists it.
struct capture_taken {
  std::string function;
  uint64_t duration_ns = 0;
  std::string file;
};

// Takes captures for the writer thread: take() hands the call and the rings to a
// thread of its own, which reads the capture's window from the rings, encodes and
// writes it, while the writer keeps draining the rings. take() is the writer
// thread's alone; the destructor waits for the captures taken to be written.
class capture_taker {
 public:
  // Captures taken and not written yet, at most: beyond, a capture is skipped. A
  // waiting capture is lists (a few KB): room for a burst of calls that a loaded
  // machine delayed, which would otherwise crowd out the slow call after them.
  static constexpr size_t max_waiting = 16;

  capture_taker(const capture_config& config, double ticks_per_ns) : config_(config), ticks_per_ns_(ticks_per_ns) {}
  ~capture_taker();
  capture_taker(const capture_taker&) = delete;
  capture_taker& operator=(const capture_taker&) = delete;

  // The first rule that names `site`'s function; null when none does.
  const capture_rule* rule_of(const site_info& site) const;

  // Takes the capture of `call`, unless this minute's PERF_CAPTURE_RATE is spent or
  // max_waiting captures wait to be written (it is then counted as skipped).
  void take(const slow_call& call, const std::vector<site_info>& sites, const std::vector<capture_source>& sources);

  // Counts `calls` caught and left out before they came to take() as skipped.
  void count_skipped(uint64_t calls);

  // Has the sampler ready its symbolizer in the background, once, where there are rules,
  // so that the captures name their samples' functions (core/timed_samples.hpp): a
  // capture taken before it is ready names them by address. The first take() does; the
  // writer also does once the program has run for ready_samples_after. Readying costs a
  // thread of the runtime's processor time once (loading the program's symbols and
  // debug information: about 90 ms for examples/log_pipeline on the development VM),
  // which a short program that catches no call never pays.
  void ready_samples();
  static constexpr auto ready_samples_after = std::chrono::seconds(1);

 private:
  struct capture_work {
    uint64_t from = 0, to = 0, margin = 0;  // the window and how far beyond it scopes are read
    std::vector<site_info> sites;
    std::vector<capture_source> sources;
    capture_taken taken;
  };
  tick_view read_window(const capture_work& work) const;
  void write_captures();

  const capture_config& config_;
  const double ticks_per_ns_;
  std::deque<std::chrono::steady_clock::time_point> recent_;  // the captures of the last minute
  uint64_t numbered_ = 0;
  std::thread thread_;  // started by the first capture
  std::mutex mutex_;    // guards the members below
  std::condition_variable wake_;
  std::deque<capture_work> waiting_;  // the first one being written
  bool stopping_ = false;
  bool samples_readied_ = false;  // the writer thread's
};

// The captures written so far (the first max_captures_listed), and how many more
// were written and how many the rate left out. Thread-safe.
constexpr size_t max_captures_listed = 256;
struct captures_so_far {
  std::vector<capture_taken> listed;
  uint64_t unlisted = 0;
  uint64_t skipped = 0;
};
captures_so_far captures_taken();

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_TICKLOG_CAPTURES_HPP
