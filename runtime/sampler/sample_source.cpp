#include "sampler/sample_source.hpp"

#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sampler/internal/sampling.hpp"

namespace perf::runtime {
namespace {

// The CPU-time clock of thread `tid` of this process (MAKE_THREAD_CPUCLOCK in the
// kernel): unlike pthread_getcpuclockid, it needs no pthread_t, so threads found in
// /proc have one too.
clockid_t thread_cpu_clock(pid_t tid) noexcept {
  constexpr clockid_t per_thread_scheduler_clock = 6;
  return static_cast<clockid_t>((~static_cast<unsigned>(tid) << 3) | per_thread_scheduler_clock);
}

// The task clock counts the thread's time on a CPU and overflows every period from
// a high-resolution timer, not at the scheduler tick as a CPU-time timer does. User
// mode only: perf_event_paranoid 2 refuses kernel sampling to unprivileged users.
int open_task_clock(pid_t tid, long period_ns) noexcept {
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_TASK_CLOCK;
  attr.sample_period = static_cast<__u64>(period_ns);
  attr.disabled = 1;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  return static_cast<int>(syscall(SYS_perf_event_open, &attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC));
}

// Starts `timer` (paused: stops it); false if it could not.
bool set_timer(timer_t timer, bool paused, const source_settings& settings) noexcept {
  itimerspec period{};
  if (!paused) {
    period.it_interval.tv_sec = settings.period_ns / 1000000000L;
    period.it_interval.tv_nsec = settings.period_ns % 1000000000L;
    period.it_value = period.it_interval;
  }
  return timer_settime(timer, 0, &period, nullptr) == 0;
}

bool arm_perf_event(pid_t tid, const source_settings& settings, bool paused, armed_source* out) noexcept {
  const int fd = open_task_clock(tid, settings.period_ns);
  if (fd < 0) return false;
  // Each overflow sends the signal to the thread itself (F_OWNER_TID), with si_code
  // POLL_IN; without a ring buffer the kernel records nothing else.
  const f_owner_ex owner{F_OWNER_TID, tid};
  // The program may close the event and reuse its number (dup2, a loop closing every
  // descriptor): that file is not ours to touch. (Its device and inode are the
  // anonymous inode's, as an eventfd's: the check tells a regular file, a socket or a
  // pipe from the event, not another anonymous file.)
  const owned_descriptor event = owned_descriptor::of(fd);
  if (fcntl(fd, F_SETSIG, settings.signal) != 0 || fcntl(fd, F_SETOWN_EX, &owner) != 0 ||
      fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC) != 0 || event.fd < 0 ||
      (!paused && ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) != 0)) {
    const int refused = errno;
    close(fd);
    errno = refused;
    return false;
  }
  *out = armed_source{sample_source::perf_event, event, nullptr};
  return true;
}

bool arm_timer(pid_t tid, const source_settings& settings, bool paused, armed_source* out) noexcept {
  sigevent event{};
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = settings.signal;
  event.sigev_value.sival_ptr = sample_timer_value(tid);
  event._sigev_un._tid = tid;
  timer_t timer;
  const clockid_t clock = settings.clock == sample_clock::cpu ? thread_cpu_clock(tid) : CLOCK_MONOTONIC;
  if (timer_create(clock, &event, &timer) != 0) return false;
  if (!set_timer(timer, paused, settings)) {
    const int refused = errno;
    timer_delete(timer);
    errno = refused;
    return false;
  }
  *out = armed_source{sample_source::timer, {}, timer};
  return true;
}

}  // namespace

sample_source choose_sample_source(sample_source preferred, const source_settings& settings,
                                   int* event_refused) noexcept {
  *event_refused = 0;
  if (preferred != sample_source::perf_event || settings.clock != sample_clock::cpu || settings.signal >= SIGRTMIN)
    return sample_source::timer;
  const int probe = open_task_clock(0, settings.period_ns);
  if (probe < 0) {
    *event_refused = errno;
    return sample_source::timer;
  }
  close(probe);
  return sample_source::perf_event;
}

bool arm_source(sample_source kind, pid_t tid, const source_settings& settings, bool paused,
                armed_source* out) noexcept {
  return kind == sample_source::perf_event ? arm_perf_event(tid, settings, paused, out)
                                           : arm_timer(tid, settings, paused, out);
}

bool pause_source(const armed_source& source, bool paused, const source_settings& settings) noexcept {
  if (source.kind == sample_source::timer) return set_timer(source.timer, paused, settings);
  return source.event.still_ours() &&
         ioctl(source.event.fd, paused ? PERF_EVENT_IOC_DISABLE : PERF_EVENT_IOC_ENABLE, 0) == 0;
}

void release_source(const armed_source& source) noexcept {
  if (source.kind == sample_source::timer) {
    timer_delete(source.timer);
    return;
  }
  if (source.event.still_ours()) close(source.event.fd);
}

}  // namespace perf::runtime
