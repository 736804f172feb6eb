#include "registry.hpp"

#include <pthread.h>

#include <algorithm>
#include <cstring>
#include <new>

namespace perf::runtime {
namespace {

// Where calls of sites beyond max_sites are counted, so nothing goes missing silently.
const site_info overflow_site = {"(sites beyond the limit of 65535)", "", 0};

uint64_t thread_calls(const thread_record& thread, unsigned site_count) {
  uint64_t calls = 0;
  for (unsigned id = 1; id < site_count; ++id)
    calls += __atomic_load_n(&thread.state.slots[id].calls, __ATOMIC_RELAXED);
  return calls;
}

std::string thread_name(pthread_t handle) {
  char name[64] = "";
  pthread_getname_np(handle, name, sizeof name);
  return name;
}

ring_counts tick_counts(const thread_record& thread) {
  return thread.state.ring != nullptr ? count_events(*thread.state.ring) : ring_counts{};
}

// Site names by id for the crash dump, which may not take the registry's lock.
// Zero pages until used.
const char* signal_safe_site_names[registry::max_sites];

}  // namespace

registry& registry::instance() {
  static registry* const the_registry = new registry;
  return *the_registry;
}

unsigned registry::register_site(detail::site& s) {
  std::lock_guard lock(mutex_);
  if (unsigned existing = __atomic_load_n(&s.id, __ATOMIC_RELAXED); existing != 0) return existing;
  unsigned id = max_sites - 1;
  if (sites_.size() < max_sites - 1) {
    id = static_cast<unsigned>(sites_.size());
    sites_.push_back({s.name, s.file, s.line});
    __atomic_store_n(&signal_safe_site_names[id], strdup(s.name), __ATOMIC_RELEASE);
  } else if (sites_.size() == max_sites - 1) {
    sites_.push_back(overflow_site);
  }
  __atomic_store_n(&s.id, id, __ATOMIC_RELAXED);
  return id;
}

void registry::add_thread(thread_record* thread) {
  std::lock_guard lock(mutex_);
  living_.push_back(thread);
}

uint64_t rings_kept_after_exit(uint64_t capacity) {
  constexpr uint64_t budget = uint64_t{96} << 20;
  return std::clamp<uint64_t>(budget / events_bytes(capacity), 64, 4096);
}

ring_record* registry::ring_for_new_thread(uint64_t capacity, long tid) {
  std::lock_guard lock(mutex_);
  if (retired_rings_.size() < rings_kept_after_exit(capacity)) return create_ring(capacity, tid);
  const retired_ring oldest = retired_rings_.front();
  retired_rings_.pop_front();
  ring_counts& ticks = retired_threads_[oldest.summary].ticks;
  ticks.dropped += ticks.kept;
  ticks.kept = 0;
  reuse_ring(*oldest.record, tid);
  return oldest.record;
}

void registry::retire_thread(thread_record* thread) {
  std::lock_guard lock(mutex_);
  const auto site_count = static_cast<unsigned>(sites_.size());
  if (retired_.size() < site_count) retired_.resize(site_count);
  for (unsigned id = 1; id < site_count; ++id) retired_[id].add(thread->state.slots[id], thread->state.arena);
  std::string name = thread_name(thread->handle);
  if (thread->state.ring != nullptr)  // its summary is the next one pushed
    retired_rings_.push_back({reinterpret_cast<ring_record*>(thread->state.ring), retired_threads_.size()});
  retired_threads_.push_back({thread->tid, std::move(name), thread_calls(*thread, site_count), true, tick_counts(*thread)});
  living_.erase(std::find(living_.begin(), living_.end(), thread));
}

registry_view registry::collect() {
  std::lock_guard lock(mutex_);
  registry_view view;
  const auto site_count = static_cast<unsigned>(sites_.size());
  view.sites = sites_;
  view.per_site.resize(site_count);
  for (unsigned id = 1; id < site_count; ++id) {
    if (id < retired_.size()) view.per_site[id].merge(retired_[id]);
    for (const thread_record* thread : living_) view.per_site[id].add(thread->state.slots[id], thread->state.arena);
  }
  for (const thread_record* thread : living_) add_pending_durations(thread->state, view.per_site);
  view.threads = retired_threads_;
  for (const thread_record* thread : living_)
    view.threads.push_back(
        {thread->tid, thread_name(thread->handle), thread_calls(*thread, site_count), false, tick_counts(*thread)});
  return view;
}

tick_view registry::collect_ticks(const detail::tick_ring* caller) {
  std::lock_guard lock(mutex_);
  tick_view view;
  view.sites = sites_;
  auto ring = retired_rings_.begin();  // in the order of retired_threads_
  for (size_t i = 0; i < retired_threads_.size(); ++i) {
    const thread_summary& thread = retired_threads_[i];
    thread_ticks ticks{thread.tid, thread.name, {}};
    if (ring != retired_rings_.end() && ring->summary == i)
      ticks.contents = copy_events((ring++)->record->ring, true);
    else if (thread.ticks.dropped != 0)
      ticks.contents.dropped = thread.ticks.dropped;  // its ring went to a newer thread
    else
      continue;  // it logged nothing
    view.threads.push_back(std::move(ticks));
  }
  for (const thread_record* thread : living_) {
    if (thread->state.ring == nullptr) continue;
    view.threads.push_back({thread->tid, thread_name(thread->handle),
                            copy_events(*thread->state.ring, thread->state.ring == caller)});
  }
  return view;
}

const char* registry::site_name(unsigned id) noexcept {
  return id < max_sites ? __atomic_load_n(&signal_safe_site_names[id], __ATOMIC_ACQUIRE) : nullptr;
}

void registry::lock_for_fork() { mutex_.lock(); }

void registry::unlock_after_fork() { mutex_.unlock(); }

void registry::reset_in_child(thread_record* survivor) {
  // The other threads do not exist in the child; their records are unreachable garbage.
  for (thread_record* thread : living_)
    if (thread != survivor) destroy_thread_record(thread);
  living_.clear();
  if (survivor != nullptr) {
    clear_thread_statistics(*survivor, static_cast<unsigned>(sites_.size()));
    survivor->tid = static_cast<long>(gettid());
    survivor->handle = pthread_self();
    living_.push_back(survivor);
  }
  retired_.clear();
  retired_threads_.clear();
  retired_rings_.clear();
  keep_only_ring(survivor != nullptr ? reinterpret_cast<ring_record*>(survivor->state.ring) : nullptr);
  // The lock was taken by this very thread before fork(); unlock it here.
  mutex_.unlock();
}

}  // namespace perf::runtime
