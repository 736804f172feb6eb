#include "export/time_windows.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "core/settings.hpp"
#include "core/thread_name.hpp"
#include "sampler/profile.hpp"
#include "sampler/profile_formats.hpp"
#include "sampler/sampler.hpp"
#include "ticklog/internal/trace.hpp"
#include "ticklog/ticklog.hpp"

namespace perf::runtime {

std::optional<std::function<std::string()>> start_profile_window() {
  const sample_table* table = sampled_stacks();
  if (table == nullptr) return std::nullopt;
  auto before = std::make_shared<const stack_counts>(count_stacks(*table));
  return [table, before] {
    const profile p = collect_profile(*table, sampling_hz(), current_sample_config().clock, before.get());
    return gzip(encode_pprof(p, known_thread_names()));
  };
}

namespace {

// /trace's body: the events logged since `start` that each thread's ring still
// holds when its turn comes, a thread at a time. Times count from `start`.
class trace_writer {
 public:
  explicit trace_writer(uint64_t start) : start_(start), threads_(tick_sources()), pending_(trace_start(getpid())) {}

  size_t write(char* out, size_t room) {
    while (written_ == pending_.size())
      if (!next_piece()) return 0;
    const size_t n = std::min(room, pending_.size() - written_);
    std::memcpy(out, pending_.data() + written_, n);
    written_ += n;
    return n;
  }

 private:
  // The next thread's events with any in the window, else the trace's end; false
  // after the end.
  bool next_piece() {
    pending_.clear();
    written_ = 0;
    while (next_ < threads_.size()) {
      const tick_source& source = threads_[next_++];
      thread_ticks thread{source.tid, source.name, copy_ticks(source)};
      auto& events = thread.contents.events;
      const auto in_window = [this](const event_copy& e) { return e.time >= start_; };
      events.erase(events.begin(), std::find_if(events.begin(), events.end(), in_window));
      if (events.empty()) continue;
      std::vector<site_info> added = copy_sites_from(static_cast<unsigned>(sites_.size()));
      sites_.insert(sites_.end(), std::make_move_iterator(added.begin()), std::make_move_iterator(added.end()));
      pending_ = trace_thread(thread, sites_, start_, current_clock_rate().ticks_per_ns, getpid());
      return true;
    }
    if (ended_) return false;
    ended_ = true;
    pending_ = trace_end;
    return true;
  }

  uint64_t start_;
  std::vector<tick_source> threads_;
  size_t next_ = 0;
  std::vector<site_info> sites_;  // index = site id; those registered so far
  std::string pending_;
  size_t written_ = 0;
  bool ended_ = false;
};

}  // namespace

std::optional<std::function<body_writer()>> start_trace_window() {
  if (!current_settings().environment.ticks) return std::nullopt;
  const uint64_t start = detail::clock_now(current_settings().clock);
  return [start]() -> body_writer {
    auto writer = std::make_shared<trace_writer>(start);
    return [writer](char* out, size_t room) { return writer->write(out, room); };
  };
}

}  // namespace perf::runtime
