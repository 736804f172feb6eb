// The lifecycle of a thread's record: made on the thread's first measured call or
// tick, handed over through the components' hooks when the thread exits, and
// cleared in a forked child.
#include "core/threads.hpp"

#include <sys/prctl.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <utility>

#include "core/registrations.hpp"
#include "core/runtime_work.hpp"
#include "core/settings.hpp"
#include "core/sites.hpp"
#include "core/startup.hpp"
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

// Three locks, so that attaching never waits for work that may call the program's
// allocator (a thread attaches from its first measured call, which may come from
// inside the program's operator new with the program's own locks held), and readers
// and hand-overs never wait for attach hooks.
struct thread_registry {
  // The thread list's lock: held by visitors and by whoever hands exited threads
  // over, across allocations (the program's allocator, which may make measured
  // calls, and wait for the program's locks), never by attaching nor by an exiting
  // thread that waits for it. Guards `exited`, `listed_one_by_one`, and the records
  // in the living list (none is freed while it is held).
  std::mutex mutex;
  // The attach lock: held across the attach hooks (mmap, their own brief locks), so
  // that fork() finds none half done; nothing is allocated and no program code runs
  // while it is held.
  std::mutex attaching;
  // The links' lock: held only to link a record into or out of the living list, or
  // to copy it. Taken after the others where several are.
  std::mutex listing;
  thread_record* first = nullptr;  // the living list, guarded by `listing`
  thread_record* last = nullptr;
  size_t living = 0;
  // Exited threads not handed over yet, newest first (thread_record::next_exited):
  // still in the living list, their records as they left them.
  std::atomic<thread_record*> exiting{nullptr};
  // Visitors waiting for `mutex`: exiting threads leave the hand-over to them.
  std::atomic<unsigned> visitors_waiting{0};
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

void unlink(thread_registry& r, thread_record* thread) {
  (thread->previous != nullptr ? thread->previous->next : r.first) = thread->next;
  (thread->next != nullptr ? thread->next->previous : r.last) = thread->previous;
  --r.living;
}

// Under `mutex`, the only place that takes records off the stack of exited threads
// (pushers only ever replace its head): the oldest `most` of them, oldest first.
thread_record* take_oldest_exited(thread_registry& r, size_t most) {
  size_t count = 0;
  thread_record* const newest = r.exiting.load();
  for (thread_record* t = newest; t != nullptr; t = t->next_exited) ++count;
  thread_record* taken = nullptr;
  if (count <= most) {
    taken = r.exiting.exchange(nullptr);  // with any pushed since: a few more
  } else {
    thread_record* last_kept = newest;
    for (size_t kept = count - most; kept > 1; --kept) last_kept = last_kept->next_exited;
    taken = std::exchange(last_kept->next_exited, nullptr);
  }
  thread_record* oldest_first = nullptr;
  while (taken != nullptr) {
    thread_record* const newer = std::exchange(taken->next_exited, oldest_first);
    oldest_first = taken;
    taken = newer;
  }
  return oldest_first;
}

// Under `mutex`: the rows and exit hooks of the oldest `most` exited threads, oldest
// first, and their records out of the living list. Returns them (linked by
// next_exited), for release() once unlocked.
thread_record* hand_over_locked(thread_registry& r, size_t most) {
  thread_record* const oldest_first = take_oldest_exited(r, most);
  if (oldest_first == nullptr) return nullptr;
  const uncounted_allocations runtime_allocations;  // the visitor's own counters, if a visitor does it
  const uint64_t one_by_one = current_settings().environment.exited_threads_listed;
  for (thread_record* t = oldest_first; t != nullptr; t = t->next_exited) {
    const size_t row = exited_row(r.exited, r.listed_one_by_one, one_by_one, t->tid, t->name);
    for (const thread_hooks& h : registered<thread_hooks>())
      if (h.exit != nullptr) h.exit(*t, row);
  }
  const std::lock_guard unlisting(r.listing);
  for (thread_record* t = oldest_first; t != nullptr; t = t->next_exited) unlink(r, t);
  return oldest_first;
}

void release_handed_over(thread_record* threads) {
  while (threads != nullptr) release(std::exchange(threads, threads->next_exited));
}

// Hands over exited threads, at most hand_over_at_once in all (while threads keep
// exiting, handing over all would keep the caller at it for as long as they come),
// while the list's lock is free and no visitor waits for it. Those left are handed
// over by the next thread to exit or the next visitor to finish; meanwhile their
// records are kept, intact, and visited as threads that have left.
void hand_over_exited() {
  thread_registry& r = registry();
  for (size_t budget = hand_over_at_once;
       budget > 0 && r.exiting.load() != nullptr && r.visitors_waiting.load() == 0;) {
    std::unique_lock lock(r.mutex, std::try_to_lock);
    if (!lock) return;
    thread_record* const handed_over = hand_over_locked(r, budget);
    lock.unlock();
    for (const thread_record* t = handed_over; t != nullptr && budget > 0; t = t->next_exited) --budget;
    release_handed_over(handed_over);
  }
}

// The thread leaves its record and goes: nothing here waits for a lock.
void on_thread_exit(void* record) {
  // Unattached first: the block is freed by whoever hands it over, and a measured
  // call from here on must not reach it.
  detail::current_thread = nullptr;
  const runtime_work work;
  const uncounted_allocations runtime_allocations;
  auto* thread = static_cast<thread_record*>(record);
  prctl(PR_GET_NAME, thread->name);  // its own name: no file to read
  for (const thread_hooks& h : registered<thread_hooks>())
    if (h.leave != nullptr) h.leave(*thread);
  __atomic_store_n(&thread->left, true, __ATOMIC_RELEASE);
  thread_registry& r = registry();
  thread->next_exited = r.exiting.load(std::memory_order_relaxed);
  while (!r.exiting.compare_exchange_weak(thread->next_exited, thread)) {}
  hand_over_exited();
}

// fork(): the registry's locks and the site table's are held across the call, in
// this order.
void before_fork() {
  registry().mutex.lock();
  registry().attaching.lock();
  registry().listing.lock();
  lock_sites_for_fork();
}

void after_fork_in_parent() {
  unlock_sites_after_fork();
  registry().listing.unlock();
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
  // The other threads do not exist in the child (those exited but not handed over
  // among them); their records are unreachable garbage.
  for (thread_record* thread = r.first; thread != nullptr;)
    if (thread_record* const gone = std::exchange(thread, thread->next); gone != survivor) release(gone);
  r.exiting.store(nullptr);
  r.first = r.last = survivor;
  r.living = survivor != nullptr ? 1 : 0;
  if (survivor != nullptr) {
    survivor->tid = static_cast<long>(gettid());
    survivor->previous = survivor->next = nullptr;
  }
  r.exited.clear();
  r.listed_one_by_one = 0;
  for (const thread_hooks& h : registered<thread_hooks>())
    if (h.fork_child != nullptr) h.fork_child(survivor);
  // This very thread took the locks before fork(); it releases them here.
  unlock_sites_after_fork();
  r.listing.unlock();
  r.attaching.unlock();
  r.mutex.unlock();
}

// The living records as they are now, in a vector allocated with the links' lock
// released (the allocator may be the program's).
std::vector<thread_record*> copy_living(thread_registry& r) {
  std::vector<thread_record*> copy;
  std::unique_lock lock(r.listing);
  while (copy.capacity() < r.living) {
    const size_t wanted = r.living + 16;
    lock.unlock();
    copy.reserve(wanted);
    lock.lock();
  }
  for (thread_record* t = r.first; t != nullptr; t = t->next) copy.push_back(t);
  return copy;
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
  {
    ++r.visitors_waiting;
    std::unique_lock lock(r.mutex);
    --r.visitors_waiting;
    // The living threads as they are now, those that have left among them; one that
    // attaches meanwhile is not visited.
    const std::vector<thread_record*> living = copy_living(r);
    visit({r.exited, living});
  }
  hand_over_exited();
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
  {
    const std::lock_guard lock(r.attaching);
    for (const thread_hooks& h : registered<thread_hooks>())
      if (h.attach != nullptr) h.attach(*thread);
    const std::lock_guard listed(r.listing);
    thread->previous = r.last;
    (r.last != nullptr ? r.last->next : r.first) = thread;
    r.last = thread;
    ++r.living;
  }
  pthread_setspecific(key, thread);
  current_thread = &thread->state;
  return current_thread;
}

}  // namespace perf::detail
