// The flight recorder: on a fatal signal, the last events of every thread go out
// before the program dies. Everything here is async-signal-safe: no allocation, no
// lock, only write(2) and friends; the rings are read as they are.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "core/config.hpp"
#include "core/output_file.hpp"
#include "core/settings.hpp"
#include "core/signals.hpp"
#include "core/sites.hpp"
#include "core/startup.hpp"
#include "core/warnings.hpp"
#include "ticklog/internal/crash_cause.hpp"
#include "ticklog/internal/tick_lines.hpp"
#include "ticklog/internal/write_error_text.hpp"
#include "ticklog/rings.hpp"
#include "ticklog/ticklog_config.hpp"

namespace perf::runtime {
namespace {

// Events written per thread: enough to see what led to the crash, few enough to
// write quickly from a dying process, and fewer on a terminal.
constexpr uint64_t events_per_thread_to_file = 4096;
constexpr uint64_t events_per_thread_to_stderr = 64;

// PERF_TICKLOG as given; empty: stderr. %p is expanded when the dump is written, so
// that a forked child's dump is its own.
char dump_pattern[4096];

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

// The descriptor for the dump at `path` (%p expanded into it), or -1 for stderr:
// the descriptor `path` names (named_descriptor), or the file opened (a link
// followed, a device or FIFO in place). A FIFO without a reader, a socket or a file
// that cannot be opened give -1: a dying process must not wait. `opened` says
// whether the descriptor is to be closed.
int open_dump(char (&path)[sizeof dump_pattern], bool& opened) noexcept {
  opened = false;
  if (dump_pattern[0] == '\0' || !expand_pid(dump_pattern, static_cast<long>(getpid()), path, sizeof path)) return -1;
  if (const int fd = named_descriptor(path); fd >= 0) return fd;
  const int fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0644);
  if (fd < 0) return -1;
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);  // a FIFO's reader may read slowly
  opened = true;
  return fd;
}

// After a failed write to the dump at `path`: ends a regular file with a marker
// line (in place of its last bytes where there is no room after them) and says on
// stderr that the dump is cut short.
void report_cut_short(int fd, const char* path, int error) noexcept {
  char marker[96] = "\n# perf: the dump is cut short here: ";
  std::strcat(marker, write_error_text(error));
  std::strcat(marker, "\n");
  const size_t length = std::strlen(marker);
  struct stat status;
  bool marked = false;
  if (::fstat(fd, &status) == 0 && S_ISREG(status.st_mode)) {
    const off_t end = ::lseek(fd, 0, SEEK_CUR);
    marked = write_all(fd, marker, length);
    if (!marked && end >= static_cast<off_t>(length)) {
      const off_t room = end - static_cast<off_t>(length);
      marked = ::ftruncate(fd, room) == 0 && ::lseek(fd, room, SEEK_SET) == room && write_all(fd, marker, length);
    }
  }
  if (fd == STDERR_FILENO) return;
  for (const char* part : {"perf: the crash dump to '", path, "' is cut short: ", write_error_text(error),
                           marked ? "; its last line says where\n" : "\n"})
    write_all(STDERR_FILENO, part, std::strlen(part));
}

// One line on stderr saying where the record of a crash went (a file, or a descriptor
// other than stderr), so that a process dying of a signal does not leave it unseen.
void say_where_written(int signal, const siginfo_t* info, const char* path) noexcept {
  tick_line_writer note(STDERR_FILENO);
  note.text("perf: ");
  write_crash_cause(note, signal, info);
  note.text(": the crash record is in '");
  note.text(path);
  note.text("'\n");
  note.flush();
}

void dump(int signal, const siginfo_t* info) noexcept {
  char path[sizeof dump_pattern];
  bool opened = false;
  const int chosen = open_dump(path, opened);
  const int fd = chosen >= 0 ? chosen : STDERR_FILENO;
  tick_line_writer out(fd);
  const double ticks_per_ns = quick_ticks_per_ns(current_settings().clock);
  const uint64_t events_per_thread = chosen >= 0 ? events_per_thread_to_file : events_per_thread_to_stderr;
  const unsigned threads = start_reading(events_per_thread);
  out.text("# perf-instrument tick log, pid ");
  out.number(static_cast<uint64_t>(getpid()));
  out.text(", written on ");
  out.text(fatal_signal_name(signal));
  out.text(": the last events (at most ");
  out.number(events_per_thread);
  out.text(" each) of ");
  out.count(threads, "thread");
  out.text("\n# ");
  write_crash_cause(out, signal, info);
  out.text("\n");
  out.column_headings();
  auto ns = [&](uint64_t ticks) { return static_cast<uint64_t>(static_cast<double>(ticks) / ticks_per_ns + 0.5); };
  const ring_record* first = earliest();
  const uint64_t origin = first != nullptr ? first->crash.next_time : 0;
  while (ring_record* r = earliest()) {
    const event_copy e = read_event(r->ring, r->crash.next);
    const uint64_t time = e.time > origin ? e.time : origin;  // a torn time must not wrap round
    out.event(ns(time - origin), ns(time > r->crash.previous_time ? time - r->crash.previous_time : 0),
              __atomic_load_n(&r->tid, __ATOMIC_RELAXED), e, site_name(e.site));
    r->crash.previous_time = time;
    if (++r->crash.next < r->crash.end) r->crash.next_time = read_event(r->ring, r->crash.next).time;
  }
  const bool written = out.flush();
  if (!written) report_cut_short(fd, chosen >= 0 ? path : "stderr", out.error());
  if (opened) ::close(fd);
  if (written && fd != STDERR_FILENO) say_where_written(signal, info, path);
}

// Makes the fatal signals dump the last events of every thread to PERF_TICKLOG
// (%p expanded then; stderr when unset) before the signal takes its course.
PERF_RUNTIME_ON_START(install_crash_dump) {
  if (!current_settings().environment.ticks) return;
  const std::string& pattern = current_ticklog_config().ticklog_path;
  if (pattern.size() >= sizeof dump_pattern) {
    warn("PERF_TICKLOG is too long a path for the crash dump; it would go to stderr");
  } else {
    std::memcpy(dump_pattern, pattern.c_str(), pattern.size() + 1);
  }
  use_alternate_signal_stacks();
  add_fatal_signal_handler(dump);
}

}  // namespace
}  // namespace perf::runtime
