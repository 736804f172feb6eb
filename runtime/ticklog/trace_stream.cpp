#include "ticklog/trace_stream.hpp"

#include <fmt/format.h>
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <vector>

#include "core/output_file.hpp"
#include "core/runtime_thread.hpp"
#include "core/settings.hpp"
#include "core/sites.hpp"
#include "core/startup.hpp"
#include "core/thread_name.hpp"
#include "core/threads.hpp"
#include "core/timed_durations.hpp"
#include "core/uncounted_allocations.hpp"
#include "core/warnings.hpp"
#include "report_format/text_format.hpp"
#include "ticklog/capture_config.hpp"
#include "ticklog/captures.hpp"
#include "ticklog/internal/perfetto_sequence.hpp"
#include "ticklog/internal/perfetto_trace.hpp"
#include "ticklog/slow_calls.hpp"
#include "ticklog/tail_threshold.hpp"
#include "ticklog/ticklog_config.hpp"

namespace perf::runtime {
namespace {

uint64_t events_read = 0;  // atomic: by the writer, from the rings (stream_events_read)

constexpr size_t batch_events = 4096;
constexpr size_t flush_bytes = size_t{1} << 20;
// How often the writer looks at the rings: a default ring (65,536 events) takes a
// thread logging an event every 30 ns 2 ms to fill.
constexpr auto poll_interval = std::chrono::milliseconds(1);
// How often a writer that reads no ring (capture rules alone, no trace) looks for sites
// registered since, to arm their rules; a call handed over wakes it.
constexpr unsigned arming_interval_ms = 10;
// How often the FUNCTION>pQ rules' limits are found again from their functions'
// distributions (tail_threshold.hpp), and the calls past such a limit the measured
// threads may hand over meanwhile (allow_handovers).
constexpr auto tail_interval = std::chrono::milliseconds(arming_interval_ms);
constexpr uint32_t tail_handovers = 16;

// One thread's use of a ring, as streamed.
struct streamed_thread {
  streamed_thread(std::string& out, uint64_t n, const std::vector<site_info>& sites) : sequence(out, n, sites) {}
  uint64_t uses = 0;  // the ring's ring_record::uses while this thread had it
  long tid = 0;
  std::string name;            // as its track is named
  uint64_t cursor = 0;         // the sequence number of its next event to read
  bool ended = false;          // its thread exited and every event of it was streamed
  uint64_t losing = 0;         // events lost since the last one streamed
  uint64_t lost = 0;           // events lost before that
  std::vector<unsigned> open;  // the sites of its scopes begun and not ended, innermost last
  perfetto_sequence sequence;  // written only while tracing
};

// A site a FUNCTION>pQ rule names: its quantile and the limit given to it so far.
struct tail_site {
  unsigned site;
  double quantile;
  std::optional<uint64_t> limit;
};

// The writer thread and what it keeps: the trace it streams (PERF_TRACE; `path`
// empty: none) and the captures it takes (PERF_CAPTURE).
class trace_stream {
 public:
  trace_stream(std::string path, uint64_t origin) : path_(std::move(path)), origin_(origin) {}

  bool tracing() const { return !path_.empty(); }

  // Starts the writer; returns once it has opened the trace (false: it could not).
  bool start() {
    writer_ = std::thread([this] { run(); });
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return state_ != state::opening; });
    return state_ == state::open;
  }

  void stop() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
      changed_.notify_all();
    }
    wake_slow_call_taker();
    if (writer_.joinable()) writer_.join();
  }

  void exited(const ring_record& record, const std::string& name) {
    std::lock_guard lock(mutex_);
    if (state_ != state::open) return;
    streamed_thread* thread = tracing() ? drain(record) : nullptr;
    if (thread == nullptr) thread = &follow(record);  // a thread that logged nothing, or a ring not read
    thread->ended = true;
    // The name it had when it exited, if it changed since its track was made.
    if (tracing() && !name.empty() && name != thread->name)
      thread->sequence.add_track(getpid(), __atomic_load_n(&record.tid, __ATOMIC_RELAXED), name);
    flush_if_full();
  }

  // Events lost in all, and the threads that lost any.
  std::pair<uint64_t, uint64_t> losses() {
    std::lock_guard lock(mutex_);
    uint64_t events = lost_events_, threads = lost_threads_;
    for (const auto& [record, thread] : threads_) {
      events += thread->lost + thread->losing;
      if (thread->lost + thread->losing != 0) ++threads;
    }
    return {events, threads};
  }

 private:
  enum class state { opening, open, closed };

  void run() {
    pthread_setname_np(pthread_self(), "perf-trace");
    block_asynchronous_signals();
    if (tracing()) write_output("trace", path_, [this](int fd) { return stream_to(fd); });
    else stream_to(-1);
    std::lock_guard lock(mutex_);
    state_ = state::closed;
    changed_.notify_all();
  }

  // Streams every ring into `fd` (-1: none) until stop(), then drains them once more
  // (where it reads them at all); takes the captures of the calls caught meanwhile.
  bool stream_to(int fd) {
    std::unique_lock lock(mutex_);
    fd_ = fd;
    ticks_per_ns_ = current_clock_rate().ticks_per_ns;
    captures_.emplace(current_capture_config(), ticks_per_ns_);
    const auto ready_samples_at = std::chrono::steady_clock::now() + capture_taker::ready_samples_after;
    if (tracing()) out_ = perfetto_process_packet(getpid());
    state_ = state::open;
    changed_.notify_all();
    for (bool last = false; !last;) {
      last = stopping_;
      const uint32_t signal = slow_calls_signal();  // before the room is emptied: a call after wakes it
      {
        const uncounted_allocations runtime_work;
        arm_new_sites();
        if (tracing())
          for (const ring_record* record = newest_ring(); record != nullptr; record = record->next) drain(*record);
        if (const uint64_t dropped = take_slow_calls(slow_calls_); dropped != 0) captures_->count_skipped(dropped);
        limit_tail_sites(lock);
        if (std::chrono::steady_clock::now() >= ready_samples_at) captures_->ready_samples();
        take_captures();
      }
      write_out();
      if (last) continue;
      if (tracing()) {
        changed_.wait_for(lock, poll_interval, [&] { return stopping_; });
      } else {
        lock.unlock();
        wait_for_slow_calls(signal, arming_interval_ms);
        lock.lock();
      }
    }
    captures_.reset();  // once the captures taken are written
    state_ = state::closed;
    return !failed_;
  }

  // The thread that has `record`'s ring now: a new one if the ring passed to another
  // since it was last seen (the old one's events all streamed by exited()).
  streamed_thread& follow(const ring_record& record) {
    const uint64_t uses = __atomic_load_n(&record.uses, __ATOMIC_RELAXED);
    std::unique_ptr<streamed_thread>& slot = threads_[&record];
    if (slot == nullptr || slot->uses != uses) {
      if (slot != nullptr) {  // ended: only its losses stay
        lost_events_ += slot->lost + slot->losing;
        if (slot->lost + slot->losing != 0) ++lost_threads_;
      }
      slot = std::make_unique<streamed_thread>(out_, sequences_++, sites_);
      slot->uses = uses;
      slot->tid = __atomic_load_n(&record.tid, __ATOMIC_RELAXED);
      slot->name = thread_name(slot->tid);
      if (tracing()) slot->sequence.add_track(getpid(), slot->tid, slot->name);
    }
    return *slot;
  }

  // Streams the events of `record` not streamed yet; its thread, null while the ring
  // holds none.
  streamed_thread* drain(const ring_record& record) {
    if (failed_) return nullptr;
    const detail::tick_ring& ring = record.ring;
    // Acquire: a new thread's use counted (reuse_ring) before its first event.
    const uint64_t written = __atomic_load_n(&ring.written, __ATOMIC_ACQUIRE);
    if (written == 0) return nullptr;
    streamed_thread& thread = follow(record);
    if (thread.ended) return &thread;
    const uint64_t kept = capacity(ring);
    if (written > kept && thread.cursor < written - kept) {
      thread.losing += written - kept - thread.cursor;
      thread.cursor = written - kept;
    }
    while (thread.cursor < written) {
      arm_new_sites();  // a backlog read here may take long: the rules must not wait for it
      const uint64_t from = thread.cursor, to = std::min(written, from + batch_events);
      const uint64_t torn = read_events(ring, from, to, batch_);
      __atomic_fetch_add(&events_read, to - from, __ATOMIC_RELAXED);
      thread.losing += torn;
      for (size_t i = torn; i < batch_.events.size(); ++i)
        add_event(thread, batch_.events[i], batch_.labels.data() + i * detail::label_words);
      thread.cursor = to;
      flush_if_full();
    }
    return &thread;
  }

  // The writer's inner loop: a few nanoseconds an event (docs/performance.md).
  void add_event(streamed_thread& thread, const detail::tick_event& event, const uint64_t* label) {
    const uint64_t ns = perfetto_time_ns(event.time, origin_, ticks_per_ns_);
    if (thread.losing != 0) {
      thread.sequence.note(ns,
                           fmt::format("perf: {} lost here: the trace's writer fell behind this thread's ring "
                                       "(PERF_RING_EVENTS gives it more room)",
                                       report_format::format_count_of(thread.losing, "event")),
                           "lost", thread.losing);
      for (; !thread.open.empty(); thread.open.pop_back()) thread.sequence.slice_end(ns);
      thread.lost += thread.losing;
      thread.losing = 0;
    }
    const unsigned site = site_of(event);
    switch (kind_of(event)) {
      case detail::event_kind::enter:
        if (site >= sites_.size()) add_new_sites();
        thread.open.push_back(site);
        thread.sequence.slice_begin(ns, site, false);
        break;
      case detail::event_kind::exit:
        // Else its enter was lost, or it ends no scope the trace shows: left out, as
        // span_roles leaves it, so that slices nest.
        if (!thread.open.empty() && thread.open.back() == site) {
          thread.open.pop_back();
          thread.sequence.slice_end(ns);
        }
        break;
      case detail::event_kind::tick: thread.sequence.tick(ns, copy_of(event, label)); break;
      case detail::event_kind::none: break;
    }
  }

  // Takes the sites registered since it last looked, and arms the rules that name
  // them: a FUNCTION>DURATION rule's limit for the measured threads to compare their
  // calls with (slow_calls.hpp) at once, a FUNCTION>pQ rule's once its function has
  // enough calls (limit_tail_sites).
  void add_new_sites() {
    const auto first = static_cast<unsigned>(sites_.size());
    std::vector<site_info> added = copy_sites_from(first);
    sites_.insert(sites_.end(), std::make_move_iterator(added.begin()), std::make_move_iterator(added.end()));
    for (unsigned site = first; site < sites_.size(); ++site) {
      const capture_rule* rule = captures_->rule_of(sites_[site]);
      if (rule == nullptr) continue;
      if (rule->quantile != 0) tail_sites_.push_back({site, rule->quantile, std::nullopt});
      else
        limit_site(site, std::max<uint64_t>(
                             1, static_cast<uint64_t>(static_cast<double>(rule->threshold_ns) * ticks_per_ns_)));
    }
  }

  void arm_new_sites() {
    if (site_count() > sites_.size()) add_new_sites();
  }

  // Gives each site of a FUNCTION>pQ rule the limit of its quantile among its timed
  // calls so far: every tail_interval, and at once where a call of it was handed over,
  // which is kept only if it lies beyond the new limit too. So the limit follows a
  // distribution that moved (a machine grown busier makes many calls slower at once)
  // within a pass, not within tail_interval, and so do the calls caught. Reads the
  // distributions with `lock` (mutex_) released: they are read under the thread list's
  // lock, under which an exiting thread's ring is drained (exited()).
  void limit_tail_sites(std::unique_lock<std::mutex>& lock) {
    if (tail_sites_.empty()) return;
    const bool handed = std::ranges::any_of(slow_calls_, [&](const slow_call& call) {
      return std::ranges::find(tail_sites_, call.site, &tail_site::site) != tail_sites_.end();
    });
    const auto now = std::chrono::steady_clock::now();
    if (now < next_tail_limits_ && !handed) return;
    next_tail_limits_ = now + tail_interval;
    std::vector<tail_site> tails = tail_sites_;
    lock.unlock();
    for (tail_site& tail : tails) {
      const std::optional<uint64_t> limit = tail_limit(read_timed_durations(tail.site), tail.quantile);
      if (!limit) continue;
      allow_handovers(tail.site, tail_handovers);
      if (limit != tail.limit) limit_site(tail.site, *limit);
      tail.limit = limit;
    }
    lock.lock();
    std::copy(tails.begin(), tails.end(), tail_sites_.begin());  // sites are only ever added
    std::erase_if(slow_calls_, [&](const slow_call& call) {
      const auto tail = std::ranges::find(tails, call.site, &tail_site::site);
      return tail != tails.end() && tail->limit && call.duration <= *tail->limit;
    });
  }

  // The captures of the calls caught since the last pass, each from every ring (read
  // by the capture thread: here only listed).
  void take_captures() {
    if (slow_calls_.empty()) return;
    // The rings the writer does not read: their threads are followed here.
    for (const ring_record* record = newest_ring(); record != nullptr; record = record->next)
      if (!tracing() && __atomic_load_n(&record->ring.written, __ATOMIC_ACQUIRE) != 0) follow(*record);
    std::vector<capture_source> sources;
    for (const auto& [record, thread] : threads_) {
      // An ended thread's ring may hold another's events by now: a new thread's (its
      // use counted; left out until the writer follows it) or those moved into it at
      // an exit (its tid then that thread's).
      const uint64_t uses = __atomic_load_n(&record->uses, __ATOMIC_RELAXED);
      if (thread->ended && uses != thread->uses) continue;
      const long tid = __atomic_load_n(&record->tid, __ATOMIC_RELAXED);
      sources.push_back({record, tid, uses, tid == thread->tid ? thread->name : thread_name(tid), thread->ended});
    }
    for (const slow_call& call : slow_calls_) captures_->take(call, sites_, sources);
    slow_calls_.clear();
  }

  void flush_if_full() {
    if (out_.size() >= flush_bytes) write_out();
  }

  void write_out() {
    if (tracing() && !failed_ && !out_.empty() && !write_all(fd_, out_.data(), out_.size())) failed_ = true;
    out_.clear();
  }

  const std::string path_;
  const uint64_t origin_;
  std::thread writer_;
  std::mutex mutex_;  // guards all below; never held by a measured call
  std::condition_variable changed_;
  state state_ = state::opening;
  bool stopping_ = false;
  bool failed_ = false;  // a write failed: nothing more is streamed
  int fd_ = -1;
  double ticks_per_ns_ = 1;
  std::string out_;  // encoded, not written yet
  event_batch batch_;
  std::vector<site_info> sites_;  // index = site id; those registered so far
  std::vector<tail_site> tail_sites_;
  std::chrono::steady_clock::time_point next_tail_limits_{};
  std::optional<capture_taker> captures_;
  std::vector<slow_call> slow_calls_;  // caught in this pass
  uint64_t sequences_ = 0;
  std::unordered_map<const ring_record*, std::unique_ptr<streamed_thread>> threads_;  // by ring
  uint64_t lost_events_ = 0, lost_threads_ = 0;  // of the threads whose rings passed on
};

// Set before the program's (and this file's) dynamic initialization: trivial types only.
trace_stream* stream = nullptr;  // set at start-up, before any thread but main; never freed
uint64_t stream_origin = 0;      // nonzero: the writer is wanted
bool trace_wanted = false;       // it streams PERF_TRACE

void forget_stream(thread_record*) {
  stream = nullptr;
  unlimit_sites();
}

PERF_RUNTIME_ON_START(take_stream_origin) {
  if (!current_settings().environment.ticks) return;
  const ticklog_config& wanted = current_ticklog_config();
  trace_wanted = wanted.trace_stream && is_perfetto_trace_path(wanted.trace_path);
  if (!trace_wanted && current_capture_config().rules.empty()) return;
  stream_origin = detail::clock_now(current_settings().clock);
  add_thread_hooks({.fork_child = forget_stream});
}

PERF_RUNTIME_AFTER_START(start_trace_stream) {
  if (stream_origin == 0) return;
  auto* started = new trace_stream(trace_wanted ? current_ticklog_config().trace_path : "", stream_origin);
  const bool open = started->start();
  stream = started;
  if (!open) started->stop();
}

}  // namespace

bool trace_streaming() { return stream != nullptr && stream->tracing(); }

uint64_t stream_events_read() { return __atomic_load_n(&events_read, __ATOMIC_RELAXED); }

void stream_exited_ring(const ring_record& record, const std::string& name) {
  if (stream != nullptr) stream->exited(record, name);
}

void finish_trace_stream() {
  if (stream == nullptr) return;
  stream->stop();
  const auto [events, threads] = stream->losses();
  if (events == 0) return;
  const std::string lost = fmt::format("{} of {}", report_format::format_count_of(events, "event"),
                                       report_format::format_count_of(threads, "thread"));
  if (stream->tracing())
    warn("the streamed trace lost " + lost + ": its writer fell behind (PERF_RING_EVENTS gives it more room)");
  else
    warn("PERF_CAPTURE did not see " + lost +
         ": the tick log's writer fell behind (PERF_RING_EVENTS gives it more "
         "room)");
}

}  // namespace perf::runtime
