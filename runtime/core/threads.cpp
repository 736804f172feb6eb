// The lifecycle of a thread's record: made on the thread's first measured call or
// tick, handed over through the components' hooks when the thread exits, and
// cleared in a forked child.
#include "core/threads.hpp"

#include <unistd.h>

#include <algorithm>
#include <mutex>

#include "core/registrations.hpp"
#include "core/room_unlocked.hpp"
#include "core/runtime_work.hpp"
#include "core/settings.hpp"
#include "core/sites.hpp"
#include "core/startup.hpp"
#include "core/thread_name.hpp"
#include "core/uncounted_allocations.hpp"

namespace perf::detail {

PERF_DETAIL_TLS thread_state* current_thread = nullptr;

}  // namespace perf::detail

namespace perf::runtime {

PERF_DETAIL_TLS unsigned unattached_runtime_work = 0;

namespace {

// Set once every PERF_RUNTIME_ON_START function (priority 101) has run. The start-up
// allocates, perhaps through the program's own operator new, and a measured call
// there must not attach a thread to a runtime still being made: it records nothing.
bool started = false;
PERF_RUNTIME_START_DONE(mark_started) { __atomic_store_n(&started, true, __ATOMIC_RELEASE); }

// Two locks, so that attaching never waits for work that may call the program's
// allocator: a thread attaches from its first measured call, which may come from
// inside the program's operator new with the program's own locks held.
struct thread_registry {
  // The thread list's lock: held by visitors and by an exiting thread's hand-over,
  // across allocations (the program's allocator, which may make measured calls, and
  // wait for the program's locks), never by attaching. Guards `exited`,
  // `listed_one_by_one`, and the records in `living` (none is freed while it is held).
  std::mutex mutex;
  // The attach lock: held only to move pointers in and out of `living`; nothing is
  // allocated and no program code runs while it is held. Taken after `mutex` where
  // both are.
  std::mutex attaching;
  std::vector<thread_record*> living;  // guarded by `attaching`
  std::vector<exited_thread> exited;
  size_t listed_one_by_one = 0;  // the first rows of `exited`; the rest are per name
};

// Never destroyed: the exit outputs read it after static destructors have run.
thread_registry& registry() {
  static thread_registry* const the_registry = new thread_registry;
  return *the_registry;
}

void release(thread_record* thread) {
  for (const thread_hooks& h : registered<thread_hooks>())
    if (h.release != nullptr) h.release(*thread);
  delete thread;
}

void on_thread_exit(void* record) {
  // Unattached first: the block is freed below, and a measured call from here on
  // (a hook's allocation) must not reach it.
  detail::current_thread = nullptr;
  const runtime_work work;
  const uncounted_allocations runtime_allocations;
  auto* thread = static_cast<thread_record*>(record);
  thread_registry& r = registry();
  {
    std::lock_guard lock(r.mutex);
    const size_t row = exited_row(r.exited, r.listed_one_by_one, current_settings().environment.exited_threads_listed,
                                  thread->tid, thread_name(thread->tid));
    for (const thread_hooks& h : registered<thread_hooks>())
      if (h.exit != nullptr) h.exit(*thread, row);
    std::lock_guard unlisting(r.attaching);
    r.living.erase(std::find(r.living.begin(), r.living.end(), thread));
  }
  release(thread);
}

// fork(): the registry's locks and the site table's are held across the call, in
// this order.
void before_fork() {
  registry().mutex.lock();
  registry().attaching.lock();
  lock_sites_for_fork();
}

void after_fork_in_parent() {
  unlock_sites_after_fork();
  registry().attaching.unlock();
  registry().mutex.unlock();
}

// The one place that frees memory (through the program's operator delete, perhaps)
// with the locks held: the child has no other thread to wait for them, and this
// thread's own measured calls meanwhile record nothing, so take none of them.
void after_fork_in_child() {
  const runtime_work work;
  thread_registry& r = registry();
  auto* survivor = reinterpret_cast<thread_record*>(detail::current_thread);
  // The other threads do not exist in the child; their records are unreachable garbage.
  for (thread_record* thread : r.living)
    if (thread != survivor) release(thread);
  r.living.clear();
  if (survivor != nullptr) {
    survivor->tid = static_cast<long>(gettid());
    r.living.push_back(survivor);
  }
  r.exited.clear();
  r.listed_one_by_one = 0;
  for (const thread_hooks& h : registered<thread_hooks>())
    if (h.fork_child != nullptr) h.fork_child(survivor);
  // This very thread took the locks before fork(); it releases them here.
  unlock_sites_after_fork();
  r.attaching.unlock();
  r.mutex.unlock();
}

pthread_key_t exit_key() {
  static const pthread_key_t key = [] {
    pthread_key_t made;
    pthread_key_create(&made, on_thread_exit);
    pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
    return made;
  }();
  return key;
}

}  // namespace

void add_thread_hooks(const thread_hooks& hooks) { registered<thread_hooks>().push_back(hooks); }

void visit_threads(const std::function<void(const thread_list& list)>& visit) {
  const runtime_work work;  // the visitor may drain this thread's pending durations
  thread_registry& r = registry();
  std::lock_guard lock(r.mutex);
  // The living threads as they are now; one that attaches meanwhile is not visited.
  const std::vector<thread_record*> living = copy_unlocked(r.living, r.attaching);
  visit({r.exited, living});
}

}  // namespace perf::runtime

namespace perf::detail {

thread_state* attach_thread() noexcept {
  using namespace runtime;
  // The runtime's own work on this thread (this very function, its allocations
  // through a program's operator new among them) may hold the registry's locks.
  if (unattached_runtime_work != 0 || !__atomic_load_n(&started, __ATOMIC_ACQUIRE)) return nullptr;
  const runtime_work work;
  const uncounted_allocations runtime_allocations;
  const pthread_key_t key = exit_key();
  auto* thread = new thread_record{};
  thread->state.clock = current_settings().clock;
  thread->tid = static_cast<long>(gettid());
  thread_registry& r = registry();
  std::vector<thread_record*> spare;  // the list's next storage, allocated unlocked; freed unlocked
  {
    std::unique_lock lock(r.attaching);
    make_room_unlocked(r.living, lock, spare);
    for (const thread_hooks& h : registered<thread_hooks>())
      if (h.attach != nullptr) h.attach(*thread);
    r.living.push_back(thread);
  }
  pthread_setspecific(key, thread);
  current_thread = &thread->state;
  return current_thread;
}

}  // namespace perf::detail
