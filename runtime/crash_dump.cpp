// The flight recorder: on a fatal signal, the last events of every thread go out
// before the program dies. Everything here is async-signal-safe: no allocation, no
// lock, only write(2) and friends; the rings are read as they are.
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <iterator>

#include "clock.hpp"
#include "registry.hpp"
#include "report/file_output.hpp"
#include "report/tick_lines.hpp"
#include "startup.hpp"

namespace perf::runtime {
namespace {

constexpr int fatal_signals[] = {SIGSEGV, SIGABRT, SIGBUS, SIGFPE};
struct sigaction previous_actions[std::size(fatal_signals)];

// Events written per thread: enough to see what led to the crash, few enough to
// write quickly from a dying process, and fewer on a terminal.
constexpr uint64_t events_per_thread_to_file = 4096;
constexpr uint64_t events_per_thread_to_stderr = 64;

char dump_path[4096];  // empty: stderr
int dumping = 0;       // atomic: the first fatal signal dumps, later ones do not

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

void dump(int signal) {
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
              registry::site_name(e.site));
    r->crash.previous_time = time;
    if (++r->crash.next < r->crash.end) r->crash.next_time = read_event(r->ring, r->crash.next).time;
  }
  out.flush();
  if (fd >= 0) ::close(fd);
}

void on_fatal_signal(int signal, siginfo_t* info, void*) {
  if (__atomic_exchange_n(&dumping, 1, __ATOMIC_ACQ_REL) == 0) dump(signal);
  for (size_t i = 0; i < std::size(fatal_signals); ++i)
    if (fatal_signals[i] == signal) sigaction(signal, &previous_actions[i], nullptr);
  // A fault repeats when the handler returns, now meeting the previous action; a
  // signal that was sent (raise, abort, kill) must be sent again.
  if (info == nullptr || info->si_code <= 0) raise(signal);
}

// Room for the dump's own frames and its 8 KiB output buffer, with a margin.
size_t signal_stack_bytes() {
  const long wanted = sysconf(_SC_SIGSTKSZ);
  return std::max<size_t>(64 * 1024, wanted > 0 ? static_cast<size_t>(wanted) : 0);
}

}  // namespace

void* add_signal_stack() noexcept {
  stack_t existing{};
  if (sigaltstack(nullptr, &existing) != 0 || (existing.ss_flags & SS_DISABLE) == 0) return nullptr;
  void* memory =
      mmap(nullptr, signal_stack_bytes(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED) return nullptr;  // the dump of a stack overflow is lost, nothing else
  stack_t ours{};
  ours.ss_sp = memory;
  ours.ss_size = signal_stack_bytes();
  if (sigaltstack(&ours, nullptr) != 0) {
    munmap(memory, signal_stack_bytes());
    return nullptr;
  }
  return memory;
}

void remove_signal_stack(void* stack) noexcept {
  if (stack == nullptr) return;
  stack_t current{};
  // The program put a stack of its own there: leave both as they are.
  if (sigaltstack(nullptr, &current) != 0 || current.ss_sp != stack) return;
  stack_t off{};
  off.ss_flags = SS_DISABLE;
  sigaltstack(&off, nullptr);
  munmap(stack, signal_stack_bytes());
}

void install_crash_dump(const std::string& ticklog_path) {
  const std::string path = ticklog_path.empty() ? std::string() : expand_path(ticklog_path);
  if (path.size() >= sizeof dump_path) {
    warn("PERF_TICKLOG is too long a path for the crash dump; it would go to stderr");
  } else {
    std::memcpy(dump_path, path.c_str(), path.size() + 1);
  }
  struct sigaction action {};
  action.sa_sigaction = on_fatal_signal;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (size_t i = 0; i < std::size(fatal_signals); ++i) sigaction(fatal_signals[i], &action, &previous_actions[i]);
}

}  // namespace perf::runtime
