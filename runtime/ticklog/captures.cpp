#include "ticklog/captures.hpp"

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <mutex>

#include "core/output_file.hpp"
#include "core/runtime_thread.hpp"
#include "core/thread_name.hpp"
#include "core/timed_samples.hpp"
#include "perf/detail/atomic.hpp"
#include "ticklog/internal/perfetto_trace.hpp"
#include "ticklog/internal/spans.hpp"

namespace perf::runtime {
namespace {

// Guards captures(). Constant-initialized, trivially destroyed: the exit report
// reads the captures after static destructors.
constinit std::mutex captures_mutex;

captures_so_far& captures() {
  static auto* const taken = new captures_so_far;  // never destroyed, as above
  return *taken;
}

void add_capture(capture_taken taken) {
  std::lock_guard lock(captures_mutex);
  if (captures().listed.size() < max_captures_listed) captures().listed.push_back(std::move(taken));
  else ++captures().unlisted;
}

// The events of `record` from `from` to `to`, and the ends of the scopes open
// across either (looked for up to one `margin` beyond the edges): a thread that spent
// the whole window inside one call, or off the processor inside it, shows that call
// whole. Ends that span_roles would not pair (an exit of another site than its
// enter's) are left out, so that spans nest.
ring_contents window_of(const ring_record& record, uint64_t from, uint64_t to, uint64_t margin, bool quiescent) {
  const ring_contents read = copy_window(record.ring, from, to, margin, quiescent);
  const std::vector<event_copy>& events = read.events;
  const std::vector<span_role> roles = span_roles(events);
  ring_contents kept;
  for (size_t i = 0; i < events.size(); ++i) {
    const span_role role = roles[i];
    const uint64_t time = events[i].time;
    const bool inside = time >= from && time <= to;
    const bool open_at_from = time < from && (role.kind == span_role::open ||
                                              (role.kind == span_role::begins && events[role.partner].time >= from));
    const bool open_at_to = time > to && (role.kind == span_role::ends_cut ||
                                          (role.kind == span_role::ends && events[role.partner].time <= to));
    if (inside || open_at_from || open_at_to) kept.events.push_back(events[i]);
  }
  return kept;
}

}  // namespace

const capture_rule* capture_taker::rule_of(const site_info& site) const {
  for (const capture_rule& rule : config_.rules)
    if (rule.function == site.name) return &rule;
  return nullptr;
}

capture_taker::~capture_taker() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    wake_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
}

void capture_taker::ready_samples() {
  if (samples_readied_ || config_.rules.empty()) return;
  samples_readied_ = true;
  prepare_timed_samples();
}

void capture_taker::take(const slow_call& call, const std::vector<site_info>& sites,
                         const std::vector<capture_source>& sources) {
  ready_samples();
  const auto now = std::chrono::steady_clock::now();
  while (!recent_.empty() && now - recent_.front() >= std::chrono::minutes(1)) recent_.pop_front();
  {
    std::lock_guard lock(mutex_);
    if (recent_.size() >= config_.per_minute || waiting_.size() >= max_waiting) return count_skipped(1);
  }
  recent_.push_back(now);
  const auto window = static_cast<uint64_t>(static_cast<double>(config_.window_ms) * 1e6 * ticks_per_ns_);
  capture_work work;
  work.from = std::min(call.enter, call.exit > window ? call.exit - window : 0);
  work.to = call.exit;
  work.margin = window;
  work.sites = sites;
  work.sources = sources;
  work.taken.function = call.site < sites.size() ? sites[call.site].name : "?";
  work.taken.duration_ns =
      static_cast<uint64_t>(std::llround(static_cast<double>(call.exit - call.enter) / ticks_per_ns_));
  work.taken.file = config_.directory;
  if (!work.taken.file.ends_with('/')) work.taken.file += '/';
  work.taken.file += "capture-" + std::to_string(getpid()) + "-" + std::to_string(++numbered_) + ".pftrace";
  std::lock_guard lock(mutex_);
  if (!thread_.joinable()) thread_ = std::thread([this] { write_captures(); });
  waiting_.push_back(std::move(work));
  wake_.notify_all();
}

void capture_taker::count_skipped(uint64_t calls) {
  std::lock_guard listed(captures_mutex);
  captures().skipped += calls;
}

tick_view capture_taker::read_window(const capture_work& work) const {
  tick_view view;
  view.sites = work.sites;
  for (const capture_source& source : work.sources) {
    const ring_record& record = *source.ring;
    const uint64_t written = __atomic_load_n(&record.ring.written, __ATOMIC_ACQUIRE);
    thread_ticks thread{source.tid, source.name, window_of(record, work.from, work.to, work.margin, source.quiescent)};
    // Left out if the ring passed to another thread, or was emptied or moved (an
    // exited thread's), while it was read.
    detail::load_load_barrier();
    if (__atomic_load_n(&record.uses, __ATOMIC_RELAXED) != source.uses ||
        __atomic_load_n(&record.tid, __ATOMIC_RELAXED) != source.tid ||
        __atomic_load_n(&record.ring.written, __ATOMIC_RELAXED) < written)
      continue;
    if (!thread.contents.events.empty()) view.threads.push_back(std::move(thread));
  }
  // The samples taken in the window; a sampled thread that logged nothing in it gets
  // a track of its own.
  view.samples = read_timed_samples(work.from, work.to);
  for (const timed_sample& sample : view.samples) {
    const auto has_track = [&](const thread_ticks& thread) { return thread.tid == sample.tid; };
    if (std::none_of(view.threads.begin(), view.threads.end(), has_track))
      view.threads.push_back({sample.tid, thread_name(sample.tid), {}});
  }
  return view;
}

void capture_taker::write_captures() {
  pthread_setname_np(pthread_self(), "perf-capture");
  block_asynchronous_signals();
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || !waiting_.empty(); });
    if (waiting_.empty()) return;  // stopping, every capture written
    capture_work work = std::move(waiting_.front());
    lock.unlock();
    const std::string trace = format_perfetto_trace(read_window(work), ticks_per_ns_, static_cast<long>(getpid()));
    if (write_output("capture", work.taken.file, [&](int fd) { return write_all(fd, trace.data(), trace.size()); }))
      add_capture(std::move(work.taken));
    lock.lock();
    waiting_.pop_front();
  }
}

captures_so_far captures_taken() {
  std::lock_guard lock(captures_mutex);
  return captures();
}

}  // namespace perf::runtime
