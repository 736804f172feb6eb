#include "ticklog/ticklog.hpp"

#include <algorithm>
#include <deque>
#include <mutex>
#include <utility>

#include "core/settings.hpp"
#include "core/snapshot_parts.hpp"
#include "core/startup.hpp"
#include "core/thread_name.hpp"
#include "core/threads.hpp"
#include "ticklog/ticklog_config.hpp"
#include "ticklog/trace_stream.hpp"

namespace perf::runtime {
namespace {

// What exited threads leave behind. `counts` and `rings` are touched only by exit
// hooks, snapshot parts and visitors, under the thread list's lock, which guards
// them. `ready` and `emptied` are shared with attaching threads (give_ring),
// under spare_rings_mutex.
struct exited_rings {
  std::vector<ring_counts> counts;  // index = row of exited threads
  struct kept {
    ring_record* record;
    size_t row;       // its row of exited threads
    uint64_t events;  // what it holds, part of counts[row].kept
  };
  std::deque<kept> rings;  // the newest config::rings_kept, oldest first
  // Empty rings for new threads: `ready` with their events' memory committed (at
  // most one: a thread that takes it meets no page fault), `emptied` without (a
  // list through ring_record::next_spare).
  ring_record* ready = nullptr;
  ring_record* emptied = nullptr;
};

exited_rings& exited() {
  static auto* const rings = new exited_rings;  // never destroyed: read at exit
  return *rings;
}

// Held only to move `ready` and `emptied`, never across an allocation: attaching
// threads take it. Inside thread hooks only, so never held across fork(). Constant-
// initialized, trivially destroyed: threads exit after static destructors too.
constinit std::mutex spare_rings_mutex;

// The first of `emptied`, taken off the list; null when it is empty. Under spare_rings_mutex.
ring_record* take_emptied(exited_rings& gone) {
  ring_record* const first = gone.emptied;
  if (first != nullptr) gone.emptied = first->next_spare;
  return first;
}

ring_record* record_of(const detail::tick_ring* ring) {
  return reinterpret_cast<ring_record*>(const_cast<detail::tick_ring*>(ring));
}

ring_counts counts_of(const thread_record& thread) {
  return thread.state.ring != nullptr ? count_events(*thread.state.ring) : ring_counts{};
}

// An attach hook: allocates nothing but the kernel's pages (create_ring).
void give_ring(thread_record& thread) {
  const config& environment = current_settings().environment;
  if (!environment.ticks) return;
  exited_rings& gone = exited();
  ring_record* record = nullptr;
  bool committed = false;
  {
    std::lock_guard lock(spare_rings_mutex);
    committed = gone.ready != nullptr;
    record = committed ? std::exchange(gone.ready, nullptr) : take_emptied(gone);
  }
  if (record != nullptr) reuse_ring(*record, thread.tid, committed);
  else record = create_ring(current_ticklog_config().ring_events, thread.tid);
  thread.state.ring = &record->ring;
}

// The oldest kept ring is emptied: its events count as dropped, and it waits for
// a new thread without holding memory.
void give_up_oldest(exited_rings& gone) {
  const exited_rings::kept oldest = gone.rings.front();
  gone.rings.pop_front();
  ring_counts& row = gone.counts[oldest.row];
  row.kept -= oldest.events;
  row.dropped += oldest.events;
  empty_ring(*oldest.record);
  std::lock_guard lock(spare_rings_mutex);
  oldest.record->next_spare = gone.emptied;
  gone.emptied = oldest.record;
}

// The exiting thread's ring joins the kept ones, the oldest beyond the limit
// emptied. A ring that did not wrap (a short-lived thread's) hands its events to an
// emptied one, whose memory grows only by the pages they take, and stays ready for
// the next thread: a thread per job then costs neither memory nor page faults. A
// streamed trace has every event of the ring first.
void keep_ring(thread_record& thread, size_t exited_index) {
  exited_rings& gone = exited();
  if (gone.counts.size() <= exited_index) gone.counts.resize(exited_index + 1);
  const ring_counts counts = counts_of(thread);
  if (thread.state.ring != nullptr) stream_exited_ring(*record_of(thread.state.ring), thread.name);
  gone.counts[exited_index].kept += counts.kept;
  gone.counts[exited_index].dropped += counts.dropped;
  if (thread.state.ring == nullptr) return;
  const uint64_t limit = current_ticklog_config().rings_kept;
  while (!gone.rings.empty() && gone.rings.size() >= limit) give_up_oldest(gone);
  ring_record* record = record_of(thread.state.ring);
  ring_record* target = nullptr;  // an emptied ring to move the events into
  if (counts.dropped == 0) {
    std::lock_guard lock(spare_rings_mutex);
    if (gone.ready == nullptr) target = take_emptied(gone);
  }
  if (target != nullptr) {
    // Only exit hooks, one at a time, make a ring ready: `ready` is still null.
    move_events(*record, *target);
    std::lock_guard lock(spare_rings_mutex);
    gone.ready = std::exchange(record, target);
  } else {
    trim_ring(*record);
  }
  gone.rings.push_back({record, exited_index, counts.kept});
  if (limit == 0) give_up_oldest(gone);
}

void keep_survivor_ring(thread_record* survivor) {
  exited() = {};
  keep_only_ring(survivor != nullptr ? record_of(survivor->state.ring) : nullptr);
}

// The tick log's part of the snapshot: events kept and dropped, per thread and in all.
void add_tick_counts(snapshot& s, const thread_list& threads, snapshot_depth) {
  const config& environment = current_settings().environment;
  s.ticklog.enabled = environment.ticks;
  s.ticklog.ring_events = environment.ticks ? current_ticklog_config().ring_events : 0;
  const std::vector<ring_counts>& gone = exited().counts;
  for (size_t row = 0; row < s.threads.size(); ++row) {
    const ring_counts counts = row < threads.exited.size() ? (row < gone.size() ? gone[row] : ring_counts{})
                                                           : counts_of(*threads.living[row - threads.exited.size()]);
    s.threads[row].tick_events = counts.kept;
    s.threads[row].tick_dropped = counts.dropped;
    s.ticklog.events += counts.kept;
    s.ticklog.dropped += counts.dropped;
  }
}

PERF_RUNTIME_ON_START(register_rings) {
  exited();  // made now: the first attach hook, which may not allocate, finds it
  add_thread_hooks({.attach = give_ring, .exit = keep_ring, .fork_child = keep_survivor_ring});
  add_snapshot_part(add_tick_counts);
}

// Every thread that logged, exited ones first, as visit(thread, dropped): an exited
// row's kept rings, each with its own thread's id, then what the row's other rings
// held, gone to newer threads, as a source without a ring whose `dropped` counts
// those events. Under the thread list's lock.
template <typename Visit>
void for_each_tick_log(const thread_list& threads, Visit visit) {
  const exited_rings& gone = exited();
  for (size_t i = 0; i < threads.exited.size(); ++i) {
    uint64_t dropped = i < gone.counts.size() ? gone.counts[i].dropped : 0;
    for (const exited_rings::kept& ring : gone.rings) {
      if (ring.row != i) continue;
      dropped -= std::min(dropped, count_events(ring.record->ring).dropped);
      visit(tick_source{ring.record->tid, threads.exited[i].name, ring.record, true}, 0);
    }
    if (dropped != 0) visit(tick_source{threads.exited[i].tid, threads.exited[i].name, nullptr, true}, dropped);
  }
  for (const thread_record* thread : threads.living)
    if (thread->state.ring != nullptr)
      visit(tick_source{thread->tid, thread_name(*thread), record_of(thread->state.ring), has_left(*thread)}, 0);
}

}  // namespace

tick_view collect_ticks(const detail::tick_ring* caller) {
  tick_view view;
  visit_threads([&](const thread_list& threads) {
    view.sites = copy_sites();
    for_each_tick_log(threads, [&](tick_source thread, uint64_t dropped) {
      thread_ticks ticks{thread.tid, std::move(thread.name), {}};
      if (thread.ring != nullptr)
        ticks.contents = copy_events(thread.ring->ring, thread.exited || &thread.ring->ring == caller);
      else ticks.contents.dropped = dropped;
      view.threads.push_back(std::move(ticks));
    });
  });
  return view;
}

std::vector<tick_source> tick_sources() {
  std::vector<tick_source> sources;
  visit_threads([&](const thread_list& threads) {
    for_each_tick_log(threads, [&](tick_source thread, uint64_t) {
      if (thread.ring != nullptr) sources.push_back(std::move(thread));
    });
  });
  return sources;
}

ring_contents copy_ticks(const tick_source& source) {
  ring_contents contents;
  // Under the thread list's lock no ring is emptied or given up; a ring already waiting
  // for a new thread may pass to one meanwhile (give_ring), which sets its `tid`
  // before logging: a copy that read any of its events (by an acquire load of
  // `written`) reads the new `tid` after it, and is thrown away.
  visit_threads([&](const thread_list&) {
    if (__atomic_load_n(&source.ring->tid, __ATOMIC_RELAXED) != source.tid) return;
    contents = copy_events(source.ring->ring, source.exited);
    if (__atomic_load_n(&source.ring->tid, __ATOMIC_RELAXED) != source.tid) contents = {};
  });
  return contents;
}

}  // namespace perf::runtime
