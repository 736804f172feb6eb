// One sampling source per thread (sample_source.hpp), each sending the sample
// signal to its own thread after every period of that thread's CPU time (or of wall
// time). Threads the start hook saw disarm their source when they exit; threads
// found in /proc/self/task are checked for having exited whenever a new thread is
// armed. A thread's source is stopped while the thread blocks the signal.
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "core/room_unlocked.hpp"
#include "core/signals.hpp"
#include "core/warnings.hpp"
#include "sampler/internal/sampling.hpp"
#include "sampler/sample_source.hpp"

namespace perf::runtime {
namespace {

struct armed_thread {
  pid_t tid;
  armed_source source;
  bool found_in_proc;  // no exit hook: disarmed once the thread is gone
  bool paused;         // the thread blocks the signal: the source is stopped
};

std::mutex& armed_mutex() {
  static auto* const mutex = new std::mutex;
  return *mutex;
}
std::vector<armed_thread>& armed() {  // guarded by armed_mutex()
  static auto* const threads = new std::vector<armed_thread>;
  return *threads;
}
source_settings settings;                                    // written before the first thread is armed
std::atomic<sample_source> preferred{sample_source::timer};  // chosen when the rate is set
int event_refused_at_start = 0;  // errno of choose_sample_source's event (under armed_mutex())

// Threads the kernel refused every source (not those that exited meanwhile), and the
// errnos of the first refusal: the event's (0: not tried) and the timer's. Written
// under armed_mutex(), read without it (a snapshot asks with the thread list's lock held).
std::atomic<uint64_t> refused_threads{0};
std::atomic<int> refused_event_errno{0};
std::atomic<int> refused_timer_errno{0};
std::atomic<bool> refusal_unwarned{false};  // the first refusal's warning is still to be given
bool arming = false;                        // atomic: new threads get a source
pthread_key_t exit_key;

pid_t current_tid() noexcept { return static_cast<pid_t>(syscall(SYS_gettid)); }

// The calling thread's id, without a system call once the thread armed itself (a
// pthread_sigmask call that pauses sampling pays for stopping its source already).
pid_t calling_tid() noexcept {
  const uint32_t known = known_thread_id();
  return known != 0 ? static_cast<pid_t>(known) : current_tid();
}

bool is_armed(pid_t tid) {
  for (const armed_thread& t : armed())
    if (t.tid == tid) return true;
  return false;
}

// Under armed_mutex(): the kernel refused thread `tid` every source, the event with
// `event_errno` (0: not tried) and the timer with `timer_errno`. A thread that exited
// meanwhile is no loss.
void note_refusal(pid_t tid, int event_errno, int timer_errno) noexcept {
  if (syscall(SYS_tgkill, getpid(), tid, 0) != 0 && errno == ESRCH) return;
  if (refused_threads.load(std::memory_order_relaxed) == 0) {
    refused_event_errno.store(event_errno, std::memory_order_relaxed);
    refused_timer_errno.store(timer_errno, std::memory_order_relaxed);
    refusal_unwarned.store(true, std::memory_order_relaxed);
  }
  refused_threads.fetch_add(1, std::memory_order_release);
}

// Warns of the first refusal, once; with no lock held (warn() allocates and writes).
void warn_of_first_refusal() noexcept {
  if (!refusal_unwarned.exchange(false, std::memory_order_acquire)) return;
  try {
    warn("a thread cannot be sampled: " + threads_not_sampled().why + "; the report counts the threads not sampled");
  } catch (...) {  // out of memory: the report still says it
  }
}

// Under armed_mutex(). `paused`: the thread blocks the signal.
void arm_locked(pid_t tid, bool found_in_proc, bool paused) noexcept {
  if (!__atomic_load_n(&arming, __ATOMIC_ACQUIRE) || is_armed(tid)) return;
  armed_source source;
  // A thread whose event the kernel refuses (out of file descriptors) gets a timer;
  // neither: the thread exited meanwhile, or the kernel refuses both (a seccomp
  // filter, out of timers).
  const sample_source kind = preferred.load(std::memory_order_relaxed);
  if (!arm_source(kind, tid, settings, paused, &source)) {
    const int first = errno;
    if (kind == sample_source::timer) return note_refusal(tid, event_refused_at_start, first);
    if (!arm_source(sample_source::timer, tid, settings, paused, &source)) return note_refusal(tid, first, errno);
  }
  try {
    armed().push_back({tid, source, found_in_proc, paused});
  } catch (...) { release_source(source); }
}

// Makes room in armed() for one more thread, `lock` holding armed_mutex() on entry
// and on return. The list grows with the lock released (core/room_unlocked.hpp):
// the program's allocator may make measured calls that take the thread list's lock,
// or wait for the program's locks, held by a thread that waits for this one (a
// pthread_sigmask call). The old storage is left in `spare`, to free unlocked. Out
// of memory, arm_locked() tries (and may fail) under the lock.
void room_for_one_more(std::unique_lock<std::mutex>& lock, std::vector<armed_thread>& spare) noexcept {
  try {
    make_room_unlocked(armed(), lock, spare);
  } catch (...) {
    if (!lock.owns_lock()) lock.lock();
  }
}

void disarm_locked(size_t index) noexcept {
  release_source(armed()[index].source);
  armed()[index] = armed().back();
  armed().pop_back();
}

// Threads found in /proc that have exited since: their sources go.
void forget_exited_locked() noexcept {
  const pid_t pid = getpid();
  for (size_t i = armed().size(); i-- > 0;)
    if (armed()[i].found_in_proc && syscall(SYS_tgkill, pid, armed()[i].tid, 0) != 0 && errno == ESRCH)
      disarm_locked(i);
}

void disarm_exiting_thread(void*) noexcept {
  const pid_t tid = current_tid();
  std::lock_guard<std::mutex> lock(armed_mutex());
  for (size_t i = 0; i < armed().size(); ++i)
    if (armed()[i].tid == tid) return disarm_locked(i);
}

// fork(): timers are not inherited; the events' descriptors are, still sending the
// parent's threads their signals, and are released. The child starts sampling
// afresh, with only the forking thread (which keeps its stack bounds), and its own
// samples only.
void lock_before_fork() noexcept { armed_mutex().lock(); }
void unlock_in_parent() noexcept { armed_mutex().unlock(); }
void restart_in_child() noexcept {
  for (const armed_thread& thread : armed())
    if (thread.source.kind == sample_source::perf_event) release_source(thread.source);
  armed().clear();
  refused_threads.store(0, std::memory_order_relaxed);  // the child's own threads from now on
  refusal_unwarned.store(false, std::memory_order_relaxed);
  if (sample_table* table = sampled_stacks()) table->clear();
  const pid_t tid = current_tid();
  set_thread_id(static_cast<uint32_t>(tid));
  arm_locked(tid, false, private_signal_blocked());
  armed_mutex().unlock();
}

}  // namespace

void configure_sources(int signal, sample_clock clock) noexcept {
  settings.signal = signal;
  settings.clock = clock;
  pthread_key_create(&exit_key, disarm_exiting_thread);
  pthread_atfork(lock_before_fork, unlock_in_parent, restart_in_child);
}

void arm_new_threads(unsigned hz, sample_source wanted) noexcept {
  {
    std::lock_guard<std::mutex> lock(armed_mutex());
    settings.period_ns = 1000000000L / static_cast<long>(hz);
    preferred.store(choose_sample_source(wanted, settings, &event_refused_at_start), std::memory_order_relaxed);
  }
  __atomic_store_n(&arming, true, __ATOMIC_RELEASE);
}

bool sampling_new_threads() noexcept { return __atomic_load_n(&arming, __ATOMIC_ACQUIRE); }

// Lock-free: the snapshot asks with the thread list's lock held, and the
// snapshot's allocations may wait for the program's locks.
sample_source sampling_source() noexcept { return preferred.load(std::memory_order_relaxed); }

void arm_calling_thread() noexcept {
  set_thread_stack(current_stack_bounds());
  const pid_t tid = current_tid();
  set_thread_id(static_cast<uint32_t>(tid));
  std::vector<armed_thread> spare;
  {
    std::unique_lock<std::mutex> lock(armed_mutex());
    room_for_one_more(lock, spare);
    forget_exited_locked();
    arm_locked(tid, false, private_signal_blocked());
  }
  // Any non-null value: the key's destructor runs when the thread exits.
  pthread_setspecific(exit_key, reinterpret_cast<void*>(static_cast<intptr_t>(1)));
  warn_of_first_refusal();
}

void arm_existing_threads() noexcept {
  DIR* tasks = opendir("/proc/self/task");
  if (tasks == nullptr) return;
  const pid_t self = current_tid();
  std::vector<pid_t> tids;  // listed before locking: see room_for_one_more
  try {
    while (const dirent* entry = readdir(tasks)) {
      const pid_t tid = static_cast<pid_t>(std::atol(entry->d_name));
      if (tid > 0 && tid != self) tids.push_back(tid);
    }
  } catch (...) {  // out of memory: the threads listed so far are armed
  }
  closedir(tasks);
  {
    std::vector<armed_thread> spare;
    std::unique_lock<std::mutex> lock(armed_mutex());
    for (const pid_t tid : tids) {
      room_for_one_more(lock, spare);
      arm_locked(tid, true, false);
    }
  }
  warn_of_first_refusal();
}

unsampled_threads threads_not_sampled() {
  unsampled_threads out;
  out.threads = refused_threads.load(std::memory_order_acquire);
  if (out.threads == 0) return out;
  const int timer_errno = refused_timer_errno.load(std::memory_order_relaxed);
  const int event_errno = refused_event_errno.load(std::memory_order_relaxed);
  out.why = "the kernel refused ";
  if (event_errno != 0) out.why += "perf_event_open (" + std::string(std::strerror(event_errno)) + ") and ";
  out.why += "timer_create (" + std::string(std::strerror(timer_errno)) + ")";
  return out;
}

void calling_thread_blocks_sample_signal(bool blocked) noexcept {
  // A bounded wait: the lock's holder may be this very thread, interrupted.
  for (int attempts = 0; !armed_mutex().try_lock(); sched_yield())
    if (++attempts == 100) return;
  const pid_t tid = calling_tid();
  for (armed_thread& t : armed())
    if (t.tid == tid && t.paused != blocked && pause_source(t.source, blocked, settings)) t.paused = blocked;
  armed_mutex().unlock();
}

void disarm_all_threads() noexcept {
  __atomic_store_n(&arming, false, __ATOMIC_RELEASE);
  std::lock_guard<std::mutex> lock(armed_mutex());
  while (!armed().empty()) disarm_locked(armed().size() - 1);
}

}  // namespace perf::runtime
