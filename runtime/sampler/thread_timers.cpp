// One timer per thread, each sending the sample signal to its own thread
// (SIGEV_THREAD_ID) after every period of that thread's CPU time (or of wall time).
// Threads the start hook saw disarm their timer when they exit; threads found in
// /proc/self/task are checked for having exited whenever a new thread is armed. A
// thread's timer is stopped while the thread blocks the signal.
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "core/signals.hpp"
#include "perf/detail/compiler.hpp"
#include "sampler.hpp"

namespace perf::runtime {
namespace {

struct armed_thread {
  pid_t tid;
  timer_t timer;
  bool found_in_proc;  // no exit hook: disarmed once the thread is gone
  bool paused;         // the thread blocks the signal: the timer is stopped
};

struct timer_settings {
  int signal = 0;
  sample_clock clock = sample_clock::cpu;
  long period_ns = 0;
};

std::mutex& armed_mutex() {
  static auto* const mutex = new std::mutex;
  return *mutex;
}
std::vector<armed_thread>& armed() {  // guarded by armed_mutex()
  static auto* const threads = new std::vector<armed_thread>;
  return *threads;
}
timer_settings settings;  // written before the first thread is armed
bool arming = false;      // atomic: new threads get timers
pthread_key_t exit_key;

PERF_DETAIL_TLS pid_t known_tid;  // the calling thread's id once it armed itself; 0 before

pid_t current_tid() noexcept { return static_cast<pid_t>(syscall(SYS_gettid)); }

// The calling thread's id, without a system call once the thread armed itself (a
// pthread_sigmask call that pauses sampling pays two timer_settime calls already).
pid_t calling_tid() noexcept { return known_tid != 0 ? known_tid : current_tid(); }

// The CPU-time clock of thread `tid` of this process (MAKE_THREAD_CPUCLOCK in the
// kernel): unlike pthread_getcpuclockid, it needs no pthread_t, so threads found in
// /proc have one too.
clockid_t thread_cpu_clock(pid_t tid) noexcept {
  constexpr clockid_t per_thread_scheduler_clock = 6;
  return static_cast<clockid_t>((~static_cast<unsigned>(tid) << 3) | per_thread_scheduler_clock);
}

bool is_armed(pid_t tid) {
  for (const armed_thread& t : armed())
    if (t.tid == tid) return true;
  return false;
}

// Starts `timer` (paused: stops it); false if it could not.
bool set_timer(timer_t timer, bool paused) noexcept {
  itimerspec period{};
  if (!paused) {
    period.it_interval.tv_sec = settings.period_ns / 1000000000L;
    period.it_interval.tv_nsec = settings.period_ns % 1000000000L;
    period.it_value = period.it_interval;
  }
  return timer_settime(timer, 0, &period, nullptr) == 0;
}

// Under armed_mutex(). `paused`: the thread blocks the signal.
void arm_locked(pid_t tid, bool found_in_proc, bool paused) noexcept {
  if (!__atomic_load_n(&arming, __ATOMIC_ACQUIRE) || is_armed(tid)) return;
  sigevent event{};
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = settings.signal;
  event.sigev_value.sival_ptr = sample_timer_value(tid);
  event._sigev_un._tid = tid;
  timer_t timer;
  const clockid_t clock = settings.clock == sample_clock::cpu ? thread_cpu_clock(tid) : CLOCK_MONOTONIC;
  if (timer_create(clock, &event, &timer) != 0) return;  // the thread exited meanwhile, or out of timers
  if (!set_timer(timer, paused)) {
    timer_delete(timer);
    return;
  }
  try {
    armed().push_back({tid, timer, found_in_proc, paused});
  } catch (...) {
    timer_delete(timer);
  }
}

void disarm_locked(size_t index) noexcept {
  timer_delete(armed()[index].timer);
  armed()[index] = armed().back();
  armed().pop_back();
}

// Threads found in /proc that have exited since: their timers go.
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

// fork(): timers are not inherited. The child starts sampling afresh, with only the
// forking thread (which keeps its stack bounds), and its own samples only.
void lock_before_fork() noexcept { armed_mutex().lock(); }
void unlock_in_parent() noexcept { armed_mutex().unlock(); }
void restart_in_child() noexcept {
  armed().clear();
  if (sample_table* table = sampled_stacks()) table->clear();
  known_tid = current_tid();
  arm_locked(known_tid, false, private_signal_blocked());
  armed_mutex().unlock();
}

}  // namespace

void configure_timers(int signal, sample_clock clock) noexcept {
  settings.signal = signal;
  settings.clock = clock;
  pthread_key_create(&exit_key, disarm_exiting_thread);
  pthread_atfork(lock_before_fork, unlock_in_parent, restart_in_child);
}

void arm_new_threads(unsigned hz) noexcept {
  {
    std::lock_guard<std::mutex> lock(armed_mutex());
    settings.period_ns = 1000000000L / static_cast<long>(hz);
  }
  __atomic_store_n(&arming, true, __ATOMIC_RELEASE);
}

bool sampling_new_threads() noexcept { return __atomic_load_n(&arming, __ATOMIC_ACQUIRE); }

void arm_calling_thread() noexcept {
  set_thread_stack(current_stack_bounds());
  const pid_t tid = known_tid = current_tid();
  {
    std::lock_guard<std::mutex> lock(armed_mutex());
    forget_exited_locked();
    arm_locked(tid, false, private_signal_blocked());
  }
  // Any non-null value: the key's destructor runs when the thread exits.
  pthread_setspecific(exit_key, reinterpret_cast<void*>(static_cast<intptr_t>(1)));
}

void arm_existing_threads() noexcept {
  DIR* tasks = opendir("/proc/self/task");
  if (tasks == nullptr) return;
  const pid_t self = current_tid();
  std::lock_guard<std::mutex> lock(armed_mutex());
  while (const dirent* entry = readdir(tasks)) {
    const pid_t tid = static_cast<pid_t>(std::atol(entry->d_name));
    if (tid > 0 && tid != self) arm_locked(tid, true, false);
  }
  closedir(tasks);
}

void calling_thread_blocks_sample_signal(bool blocked) noexcept {
  // A bounded wait: the lock's holder may be this very thread, interrupted.
  for (int attempts = 0; !armed_mutex().try_lock(); sched_yield())
    if (++attempts == 100) return;
  const pid_t tid = calling_tid();
  for (armed_thread& t : armed())
    if (t.tid == tid && t.paused != blocked && set_timer(t.timer, blocked)) t.paused = blocked;
  armed_mutex().unlock();
}

void disarm_all_threads() noexcept {
  __atomic_store_n(&arming, false, __ATOMIC_RELEASE);
  std::lock_guard<std::mutex> lock(armed_mutex());
  while (!armed().empty()) disarm_locked(armed().size() - 1);
}

}  // namespace perf::runtime
