// The flight recorder: on a fatal signal, the last events of every thread go out
// before the program dies. Everything here is async-signal-safe: no allocation, no
// lock, only write(2) and friends; the rings are read as they are.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstring>

#include "core/output_file.hpp"
#include "core/settings.hpp"
#include "core/signals.hpp"
#include "core/sites.hpp"
#include "core/startup.hpp"
#include "core/warnings.hpp"
#include "ticklog/internal/tick_lines.hpp"
#include "ticklog/rings.hpp"

namespace perf::runtime {
namespace {

// Events written per thread: enough to see what led to the crash, few enough to
// write quickly from a dying process, and fewer on a terminal.
constexpr uint64_t events_per_thread_to_file = 4096;
constexpr uint64_t events_per_thread_to_stderr = 64;

char dump_path[4096];  // empty: stderr

const char* signal_name(int signal) {
  switch (signal) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
  }
  return "a fatal signal";
}

// Positions every ring's reading at its last `events_per_thread` events; returns how
// many rings have any.
unsigned start_reading(uint64_t events_per_thread) {
  unsigned threads = 0;
  for (ring_record* r = newest_ring(); r != nullptr; r = r->next) {
    const uint64_t written = __atomic_load_n(&r->ring.written, __ATOMIC_ACQUIRE);
    // The oldest slot may be half overwritten by a thread still running: skip it.
    uint64_t kept = written < capacity(r->ring) ? written : capacity(r->ring) - 1;
    if (kept > events_per_thread) kept = events_per_thread;
    r->crash = {written - kept, written, 0, 0};
    if (kept != 0) {
      r->crash.next_time = read_event(r->ring, r->crash.next).time;
      r->crash.previous_time = r->crash.next_time;
      ++threads;
    }
  }
  return threads;
}

// The ring whose next event is the earliest, or null when all are read.
ring_record* earliest() {
  ring_record* best = nullptr;
  for (ring_record* r = newest_ring(); r != nullptr; r = r->next)
    if (r->crash.next < r->crash.end && (best == nullptr || r->crash.next_time < best->crash.next_time)) best = r;
  return best;
}

void dump(int signal) noexcept {
  const int fd = dump_path[0] == '\0' ? -1 : ::open(dump_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  tick_line_writer out(fd >= 0 ? fd : STDERR_FILENO);
  const double ticks_per_ns = quick_ticks_per_ns(current_settings().clock);
  const uint64_t events_per_thread = fd >= 0 ? events_per_thread_to_file : events_per_thread_to_stderr;
  const unsigned threads = start_reading(events_per_thread);
  out.text("# perf-instrument tick log, pid ");
  out.number(static_cast<uint64_t>(getpid()));
  out.text(", written on ");
  out.text(signal_name(signal));
  out.text(": the last events (at most ");
  out.number(events_per_thread);
  out.text(" each) of ");
  out.count(threads, "thread");
  out.text("\n");
  out.column_headings();
  auto ns = [&](uint64_t ticks) { return static_cast<uint64_t>(static_cast<double>(ticks) / ticks_per_ns + 0.5); };
  const ring_record* first = earliest();
  const uint64_t origin = first != nullptr ? first->crash.next_time : 0;
  while (ring_record* r = earliest()) {
    const event_copy e = read_event(r->ring, r->crash.next);
    const uint64_t time = e.time > origin ? e.time : origin;  // a torn time must not wrap round
    out.event(ns(time - origin), ns(time > r->crash.previous_time ? time - r->crash.previous_time : 0),
              __atomic_load_n(&r->tid, __ATOMIC_RELAXED), e,
              site_name(e.site));
    r->crash.previous_time = time;
    if (++r->crash.next < r->crash.end) r->crash.next_time = read_event(r->ring, r->crash.next).time;
  }
  out.flush();
  if (fd >= 0) ::close(fd);
}

// Makes the fatal signals dump the last events of every thread to PERF_TICKLOG
// (%p expanded; stderr when unset) before the signal takes its course.
PERF_RUNTIME_ON_START(install_crash_dump) {
  const config& environment = current_settings().environment;
  if (!environment.ticks) return;
  const std::string path = environment.ticklog_path.empty() ? std::string() : expand_path(environment.ticklog_path);
  if (path.size() >= sizeof dump_path) {
    warn("PERF_TICKLOG is too long a path for the crash dump; it would go to stderr");
  } else {
    std::memcpy(dump_path, path.c_str(), path.size() + 1);
  }
  use_alternate_signal_stacks();
  add_fatal_signal_handler(dump);
}

}  // namespace
}  // namespace perf::runtime
