#include "registry.hpp"

#include <pthread.h>

#include <algorithm>
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

void registry::retire_thread(thread_record* thread) {
  std::lock_guard lock(mutex_);
  const auto site_count = static_cast<unsigned>(sites_.size());
  if (retired_.size() < site_count) retired_.resize(site_count);
  for (unsigned id = 1; id < site_count; ++id) retired_[id].add(thread->state.slots[id], thread->state.arena);
  retired_threads_.push_back({thread->tid, thread_name(thread->handle), thread_calls(*thread, site_count), true});
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
    view.threads.push_back({thread->tid, thread_name(thread->handle), thread_calls(*thread, site_count), false});
  return view;
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
  // The lock was taken by this very thread before fork(); unlock it here.
  mutex_.unlock();
}

}  // namespace perf::runtime
