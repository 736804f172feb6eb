#include "ticklog/trace_writer.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <iterator>

#include "core/settings.hpp"
#include "ticklog/internal/trace.hpp"

namespace perf::runtime {

trace_writer::trace_writer(uint64_t start) : start_(start), threads_(tick_sources()), pending_(trace_start(getpid())) {}

size_t trace_writer::write(char* out, size_t room) {
  while (written_ == pending_.size())
    if (!next_piece()) return 0;
  const size_t n = std::min(room, pending_.size() - written_);
  std::memcpy(out, pending_.data() + written_, n);
  written_ += n;
  return n;
}

bool trace_writer::next_piece() {
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

}  // namespace perf::runtime
