#include "ticklog/ticklog.hpp"

#include <algorithm>
#include <deque>

#include "core/settings.hpp"
#include "core/snapshot.hpp"
#include "core/thread_name.hpp"
#include "core/startup.hpp"
#include "core/threads.hpp"

namespace perf::runtime {
namespace {

// What exited threads leave behind. Touched only by thread hooks, snapshot parts
// and visitors, under the thread list's lock, which guards it.
struct exited_rings {
  std::vector<ring_counts> counts;  // index = exited thread
  struct kept {
    ring_record* record;
    size_t thread;  // its exited thread
  };
  std::deque<kept> rings;  // oldest first
};

exited_rings& exited() {
  static auto* const rings = new exited_rings;  // never destroyed: read at exit
  return *rings;
}

ring_record* record_of(const detail::tick_ring* ring) {
  return reinterpret_cast<ring_record*>(const_cast<detail::tick_ring*>(ring));
}

ring_counts counts_of(const thread_record& thread) {
  return thread.state.ring != nullptr ? count_events(*thread.state.ring) : ring_counts{};
}

void give_ring(thread_record& thread) {
  const config& environment = current_settings().environment;
  if (!environment.ticks) return;
  const uint64_t capacity = environment.ring_events;
  exited_rings& gone = exited();
  ring_record* record = nullptr;
  if (gone.rings.size() < rings_kept_after_exit(capacity)) {
    record = create_ring(capacity, thread.tid);
  } else {
    const exited_rings::kept oldest = gone.rings.front();
    gone.rings.pop_front();
    ring_counts& counts = gone.counts[oldest.thread];
    counts.dropped += counts.kept;
    counts.kept = 0;
    reuse_ring(*oldest.record, thread.tid);
    record = oldest.record;
  }
  thread.state.ring = &record->ring;
}

void keep_ring(thread_record& thread, size_t exited_index) {
  exited_rings& gone = exited();
  gone.counts.resize(exited_index + 1);
  gone.counts[exited_index] = counts_of(thread);
  if (thread.state.ring != nullptr) gone.rings.push_back({record_of(thread.state.ring), exited_index});
}

void keep_survivor_ring(thread_record* survivor) {
  exited() = {};
  keep_only_ring(survivor != nullptr ? record_of(survivor->state.ring) : nullptr);
}

// The tick log's part of the snapshot: events kept and dropped, per thread and in all.
void add_tick_counts(snapshot& s, const thread_list& threads, snapshot_depth) {
  const config& environment = current_settings().environment;
  s.ticklog.enabled = environment.ticks;
  s.ticklog.ring_events = environment.ticks ? environment.ring_events : 0;
  const std::vector<ring_counts>& gone = exited().counts;
  for (size_t row = 0; row < s.threads.size(); ++row) {
    const ring_counts counts = row < threads.exited.size()
                                   ? (row < gone.size() ? gone[row] : ring_counts{})
                                   : counts_of(*threads.living[row - threads.exited.size()]);
    s.threads[row].tick_events = counts.kept;
    s.threads[row].tick_dropped = counts.dropped;
    s.ticklog.events += counts.kept;
    s.ticklog.dropped += counts.dropped;
  }
}

PERF_RUNTIME_ON_START(register_rings) {
  add_thread_hooks({.attach = give_ring, .exit = keep_ring, .fork_child = keep_survivor_ring});
  add_snapshot_part(add_tick_counts);
}

}  // namespace

uint64_t rings_kept_after_exit(uint64_t capacity) {
  constexpr uint64_t budget = uint64_t{96} << 20;
  return std::clamp<uint64_t>(budget / events_bytes(capacity), 64, 4096);
}

namespace {

// Every thread that logged, exited ones first, as visit(thread, record, dropped):
// `record` is its ring, null when the ring went to a newer thread (then `dropped`
// counts its events). Under the thread list's lock.
template <typename Visit>
void for_each_tick_log(const thread_list& threads, Visit visit) {
  const exited_rings& gone = exited();
  auto ring = gone.rings.begin();  // in the order of their threads
  for (size_t i = 0; i < threads.exited.size(); ++i) {
    const uint64_t dropped = i < gone.counts.size() ? gone.counts[i].dropped : 0;
    tick_source thread{threads.exited[i].tid, threads.exited[i].name, nullptr, true};
    if (ring != gone.rings.end() && ring->thread == i)
      thread.ring = (ring++)->record;
    else if (dropped == 0)
      continue;  // it logged nothing
    visit(std::move(thread), dropped);
  }
  for (const thread_record* thread : threads.living)
    if (thread->state.ring != nullptr) visit(tick_source{thread->tid, thread_name(thread->tid), record_of(thread->state.ring), false}, 0);
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
      else
        ticks.contents.dropped = dropped;
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
  // Under the lock: a ring passes to a newer thread only in an attach hook.
  visit_threads([&](const thread_list&) {
    if (__atomic_load_n(&source.ring->tid, __ATOMIC_RELAXED) == source.tid)
      contents = copy_events(source.ring->ring, source.exited);
  });
  return contents;
}

}  // namespace perf::runtime
