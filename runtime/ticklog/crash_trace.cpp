// The flight recorder in Perfetto's format: where PERF_TRACE names a Perfetto trace
// (.pftrace, .perfetto-trace), a fatal signal writes what every thread's ring holds
// there as a Perfetto trace (the exit trace will never be), beside the plain dump of
// crash_dump.cpp. The packets are those of internal/perfetto_sequence.hpp, made by
// the same encoder (internal/perfetto_packets.hpp) into fixed arrays: the process's
// track, then per ring a sequence of its own, its track named like the thread, a
// slice per scope (those still open ended at the crash, their begin marked
// with the debug annotation `crash`), an instant per tick, and on the crashing
// thread's track the runtime's note of what killed it.
//
// Everything here is async-signal-safe: no allocation, no lock, no stdio. The memory
// is mapped at start-up: a copy of one ring's events (24 bytes each, up to
// max_copied_events) and the bytes encoded and not yet written (out_capacity),
// resident only once a crash writes the trace; each packet is encoded in fixed arrays
// on the handler's stack (about 7 KiB, and 8 KiB for the paths), a track's interned
// sites in a static bitmap (8 KiB). A ring is copied before it is encoded, with the
// rings' protocol (read_events), so that what another thread logs meanwhile tears
// nothing.
//
// The file: `<path>.tmp.<pid>.crash` in the same directory, renamed over the path
// once whole (a FIFO, a device, a named descriptor or a symbolic link written in
// place: the link stays a link, as write_file leaves it).
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/clock.hpp"
#include "core/config.hpp"
#include "core/output_file.hpp"
#include "core/settings.hpp"
#include "core/signals.hpp"
#include "core/sites.hpp"
#include "core/startup.hpp"
#include "core/warnings.hpp"
#include "report_format/fixed_protobuf_writer.hpp"
#include "ticklog/internal/crash_cause.hpp"
#include "ticklog/internal/perfetto_fields.hpp"
#include "ticklog/internal/perfetto_packets.hpp"
#include "ticklog/internal/perfetto_sequence.hpp"
#include "ticklog/internal/perfetto_trace.hpp"
#include "ticklog/internal/spans.hpp"
#include "ticklog/internal/write_error_text.hpp"
#include "ticklog/rings.hpp"
#include "ticklog/ticklog_config.hpp"

namespace perf::runtime {
namespace {

// The most events of one ring the trace holds: its newest.
constexpr uint64_t max_copied_events = uint64_t{1} << 20;
constexpr size_t out_capacity = size_t{1} << 16;
// Scopes open at once that a ring's slices show; deeper ones are left out.
constexpr unsigned max_open_depth = 1024;
// A site's name is cut to this many bytes (a packet must fit its scratch).
constexpr size_t max_name_length = 1024;
// Ticks' labels are interned afresh each time, under iids above the sites'.
constexpr uint64_t first_label_iid = uint64_t{1} << 32;

using packet_writer = fixed_protobuf_writer<max_name_length + 512>;
using part_writer = fixed_protobuf_writer<max_name_length + 256>;

// PERF_TRACE as given (%p expanded at the crash); empty: no crash trace.
char trace_pattern[4096];
detail::tick_event* copied = nullptr;  // room for copy_capacity events
uint64_t copy_capacity = 0;
char* out_buffer = nullptr;  // out_capacity bytes

// What an event is in the trace, kept in the copy's meta beside its kind (bits 16
// to 23, unused by the rings): its span_role (pair_spans).
span_role::kind_t role_of(const detail::tick_event& e) { return static_cast<span_role::kind_t>((e.meta >> 16) & 0xff); }
void set_role(detail::tick_event& e, span_role::kind_t r) {
  e.meta = (e.meta & ~(uint64_t{0xff} << 16)) | uint64_t{r} << 16;
}

// Text laid out in a fixed array of `N` bytes (cut at its end): the note, a track's
// name, a path.
template <size_t N>
struct fixed_text {
  char bytes[N];
  size_t size = 0;
  void text(const char* s) noexcept {
    for (; *s != '\0' && size < sizeof bytes; ++s) bytes[size++] = *s;
  }
  void number(uint64_t value) noexcept {
    char digits[20];
    size_t n = 0;
    do digits[n++] = static_cast<char>('0' + value % 10);
    while ((value /= 10) != 0);
    while (n > 0 && size < sizeof bytes) bytes[size++] = digits[--n];
  }
  void hex(uint64_t value) noexcept {
    char digits[16];
    size_t n = 0;
    do digits[n++] = "0123456789abcdef"[value % 16];
    while ((value /= 16) != 0);
    text("0x");
    while (n > 0 && size < sizeof bytes) bytes[size++] = digits[--n];
  }
};

// The trace's bytes on their way to the file, through out_buffer.
class crash_output {
 public:
  explicit crash_output(int fd) noexcept : fd_(fd) {}
  // `packet` as a TracePacket of the trace.
  template <size_t N>
  void packet(const fixed_protobuf_writer<N>& packet) noexcept {
    if (packet.full()) return;  // cannot happen with names cut to max_name_length
    char head[2 * protobuf_writer::max_varint_size];
    char* end = protobuf_writer::put_varint(head, key(trace_fields::packet, 2));
    end = protobuf_writer::put_varint(end, packet.size());
    bytes(head, static_cast<size_t>(end - head));
    bytes(packet.data(), packet.size());
  }
  bool flush() noexcept {
    if (error_ == 0 && used_ != 0 && !write_all(fd_, out_buffer, used_)) error_ = errno != 0 ? errno : EIO;
    used_ = 0;
    return error_ == 0;
  }
  int error() const noexcept { return error_; }

 private:
  void bytes(const char* data, size_t size) noexcept {
    if (size > out_capacity - used_) flush();
    __builtin_memcpy(out_buffer + used_, data, size);  // a packet is far smaller than the buffer
    used_ += size;
  }
  int fd_;
  int error_ = 0;
  size_t used_ = 0;
};

// The name of the living thread `tid` (its /proc/self/task/<tid>/comm), or "thread
// <tid>" for one that has exited.
fixed_text<64> thread_name_of(long tid) noexcept {
  fixed_text<64> path;
  path.text("/proc/self/task/");
  path.number(static_cast<uint64_t>(tid));
  path.text("/comm");
  path.bytes[path.size < sizeof path.bytes ? path.size : sizeof path.bytes - 1] = '\0';
  fixed_text<64> name;
  const int fd = ::open(path.bytes, O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    const ssize_t n = ::read(fd, name.bytes, sizeof name.bytes);
    ::close(fd);
    if (n > 0) name.size = static_cast<size_t>(n);
    while (name.size > 0 && name.bytes[name.size - 1] == '\n') --name.size;
  }
  if (name.size == 0) {
    name.text("thread ");
    name.number(static_cast<uint64_t>(tid));
  }
  return name;
}

// One thread's sequence of the trace.
class crash_sequence {
 public:
  crash_sequence(crash_output& out, uint64_t n, long pid, const fixed_text<64>& name, long tid) noexcept
      : out_(out), sequence_(perfetto_sequence_id(n)), track_(perfetto_thread_track(n)) {
    static uint64_t cleared[max_sites / 64];  // one sequence at a time
    interned_ = cleared;
    __builtin_memset(interned_, 0, sizeof cleared);
    packet_writer packet;
    make_thread_track_packet<part_writer>(packet, sequence_, track_, pid, tid, {name.bytes, name.size});
    out_.packet(packet);
  }

  // A slice of site `site` begins; `mark`, if not null, its debug annotation (name,
  // text).
  void begin(uint64_t ns, unsigned site, const char* mark_name, const char* mark_text) noexcept {
    part_writer event;
    start_event(event, event_fields::slice_begin, track_);
    event.varint_field(event_fields::category_iids, category_iid);
    event.varint_field(event_fields::name_iid, uint64_t{site} + 1);
    if (mark_name != nullptr) add_annotation(event, mark_name, mark_text);
    part_writer interned;
    const unsigned bit = site % max_sites;
    if ((interned_[bit / 64] >> (bit % 64) & 1) == 0) {
      interned_[bit / 64] |= uint64_t{1} << (bit % 64);
      const char* name = site_name(site);
      if (name == nullptr) name = "?";
      add_interned_name(interned, interned_fields::event_names, uint64_t{site} + 1,
                        {name, ::strnlen(name, max_name_length)});
    }
    event_packet(ns, event, interned);
  }
  void end(uint64_t ns) noexcept {
    part_writer event;
    start_event(event, event_fields::slice_end, track_);
    event_packet(ns, event, part_writer{});
  }
  // An instant named `name`, of the runtime's category when `note`, with the integer
  // debug annotation `argument`.
  void instant(uint64_t ns, std::string_view name, bool note, const char* argument, int64_t value) noexcept {
    const uint64_t iid = next_label_iid_++;
    part_writer event;
    start_event(event, event_fields::instant, track_);
    if (note) event.varint_field(event_fields::category_iids, note_category_iid);
    event.varint_field(event_fields::name_iid, iid);
    add_annotation(event, argument, value);
    part_writer interned;
    add_interned_name(interned, interned_fields::event_names, iid, name);
    event_packet(ns, event, interned);
  }

 private:
  void event_packet(uint64_t ns, const part_writer& event, const part_writer& interned) noexcept {
    packet_writer packet;
    packet.varint_field(packet_fields::timestamp, ns);
    add_event_fields(packet, sequence_, event, interned);
    out_.packet(packet);
  }

  crash_output& out_;
  uint32_t sequence_;
  uint64_t track_;
  uint64_t* interned_;  // a bit per site id: its name interned on this sequence
  uint64_t next_label_iid_ = first_label_iid;
};

// What the crash's trace needs beside each ring.
struct crash_moment {
  long pid;
  long crashing_tid;
  uint64_t origin;  // the clock value of the trace's 0
  uint64_t time;    // of the crash
  double ticks_per_ns;
  fixed_text<256> cause;  // "perf: SIGSEGV on thread ..."
  int signal;
  uint64_t ns(uint64_t ticks) const noexcept { return perfetto_time_ns(ticks, origin, ticks_per_ns); }
};

// The events of a ring copied: `count` of them, the last with sequence number end - 1.
struct ring_copy {
  uint64_t count;
  uint64_t end;
};

// Copies the newest events of `ring` (at most copy_capacity, the oldest left out
// while its thread may overwrite it) into `copied`, those torn meanwhile left out.
ring_copy copy_ring(const detail::tick_ring& ring) noexcept {
  const uint64_t written = __atomic_load_n(&ring.written, __ATOMIC_ACQUIRE);
  uint64_t kept = written < capacity(ring) ? written : capacity(ring) - 1;
  if (kept > copy_capacity) kept = copy_capacity;
  const uint64_t torn = read_events(ring, written - kept, written, copied, nullptr);
  if (torn != 0) __builtin_memmove(copied, copied + torn, (kept - torn) * sizeof *copied);
  return {kept - torn, written};
}

// The roles of the copy's `count` events; leaves the scopes open at its end in
// `open_scopes` (innermost last) and returns how many.
size_t assign_roles(uint64_t count, size_t* open_scopes) noexcept {
  return pair_spans(
      count, [](size_t i) { return kind_of(copied[i]); }, [](size_t i) { return site_of(copied[i]); }, open_scopes,
      max_open_depth, [](size_t i, span_role::kind_t kind, size_t) { set_role(copied[i], kind); });
}

// The label of the tick `copy` (sequence number `index` of `ring`; labels are not
// copied), or "tick" where it has none or the ring has overwritten it since.
size_t tick_label(const detail::tick_ring& ring, uint64_t index, const detail::tick_event& copy,
                  char (&label)[detail::max_label_length + 1]) noexcept {
  const event_copy now = read_event(ring, index);
  if (now.label_length == 0 || now.time != copy.time || now.value != copy.value ||
      __atomic_load_n(&ring.written, __ATOMIC_ACQUIRE) - index >= capacity(ring)) {
    __builtin_memcpy(label, "tick", 5);
    return 4;
  }
  __builtin_memcpy(label, now.label, now.label_length);
  return now.label_length;
}

// The sequence of `record` (the `n`th), if it holds any event or is the crashing
// thread's; returns whether it wrote one.
bool write_ring(crash_output& out, uint64_t n, const ring_record& record, const crash_moment& crash) noexcept {
  const long tid = __atomic_load_n(&record.tid, __ATOMIC_RELAXED);
  const auto [count, end_index] = copy_ring(record.ring);
  const bool crashing = tid == crash.crashing_tid;
  if (count == 0 && !crashing) return false;
  static size_t open_scopes[max_open_depth];
  const size_t depth = assign_roles(count, open_scopes);
  crash_sequence sequence(out, n, crash.pid, thread_name_of(tid), tid);
  if (count != 0) {
    const uint64_t first = crash.ns(copied[0].time);
    // The scopes entered before the first event kept begin there, the outermost first.
    for (uint64_t i = count; i-- > 0;)
      if (role_of(copied[i]) == span_role::ends_cut)
        sequence.begin(first, site_of(copied[i]), "cut", "entered before the first event kept");
  }
  uint64_t last = 0;
  for (uint64_t i = 0; i < count; ++i) {
    const detail::tick_event& e = copied[i];
    const uint64_t ns = crash.ns(e.time);
    last = ns > last ? ns : last;
    switch (role_of(e)) {
      case span_role::begins: sequence.begin(ns, site_of(e), nullptr, nullptr); break;
      case span_role::open: sequence.begin(ns, site_of(e), "crash", "still open at the crash: ended there"); break;
      case span_role::ends:
      case span_role::ends_cut: sequence.end(ns); break;
      case span_role::tick: {
        char label[detail::max_label_length + 1];
        const size_t length = tick_label(record.ring, end_index - (count - i), e, label);
        sequence.instant(ns, {label, length}, false, "n", e.value);
        break;
      }
      case span_role::left_out: break;
    }
  }
  const uint64_t crash_ns = crash.ns(crash.time) > last ? crash.ns(crash.time) : last;
  if (crashing) sequence.instant(crash_ns, {crash.cause.bytes, crash.cause.size}, true, "signal", crash.signal);
  for (size_t d = depth; d-- > 0;) sequence.end(crash_ns);
  return true;
}

// The earliest clock value of the events the rings hold.
uint64_t earliest_event_time() noexcept {
  uint64_t earliest = UINT64_MAX;
  for (const ring_record* r = newest_ring(); r != nullptr; r = r->next) {
    const uint64_t written = __atomic_load_n(&r->ring.written, __ATOMIC_ACQUIRE);
    uint64_t kept = written < capacity(r->ring) ? written : capacity(r->ring) - 1;
    if (kept > copy_capacity) kept = copy_capacity;
    if (kept == 0) continue;
    const uint64_t time = read_event(r->ring, written - kept).time;
    earliest = time < earliest ? time : earliest;
  }
  return earliest;
}

void write_trace(const crash_moment& crash, crash_output& out) noexcept {
  packet_writer packet;
  make_process_packet<part_writer>(packet, crash.pid, program_invocation_short_name);
  out.packet(packet);
  uint64_t n = 0;
  bool crashing_written = false;
  for (const ring_record* r = newest_ring(); r != nullptr; r = r->next) {
    if (!write_ring(out, n, *r, crash)) continue;
    ++n;
    crashing_written |= __atomic_load_n(&r->tid, __ATOMIC_RELAXED) == crash.crashing_tid;
  }
  if (!crashing_written) {  // a thread without a ring: its track holds the note alone
    crash_sequence sequence(out, n, crash.pid, thread_name_of(crash.crashing_tid), crash.crashing_tid);
    sequence.instant(crash.ns(crash.time), {crash.cause.bytes, crash.cause.size}, true, "signal", crash.signal);
  }
}

// Says on stderr what became of the crash trace at `path`.
void say(const char* first, const char* path, const char* last) noexcept {
  for (const char* part : {first, path, last}) write_all(STDERR_FILENO, part, ::strlen(part));
}

void write_crash_trace(int signal, const siginfo_t* info) noexcept {
  char path[sizeof trace_pattern];
  if (!expand_pid(trace_pattern, static_cast<long>(getpid()), path, sizeof path)) return;
  crash_moment crash;
  crash.pid = static_cast<long>(getpid());
  crash.crashing_tid = static_cast<long>(::syscall(SYS_gettid));
  crash.ticks_per_ns = quick_ticks_per_ns(current_settings().clock);
  crash.origin = earliest_event_time();
  crash.time = detail::clock_now(current_settings().clock);
  if (crash.origin > crash.time) crash.origin = crash.time;
  crash.signal = signal;
  crash.cause.text("perf: ");
  write_crash_cause(crash.cause, signal, info);
  // A FIFO, device, named descriptor or symbolic link is written in place (the link
  // stays a link); a regular file (or none yet) through a temporary file renamed over
  // it; anything else is left alone.
  fixed_text<sizeof trace_pattern + 48> temporary;
  int fd = named_descriptor(path);
  bool opened = false;
  if (fd < 0) {
    struct stat status;
    const bool exists = ::lstat(path, &status) == 0;
    if (exists && (S_ISCHR(status.st_mode) || S_ISFIFO(status.st_mode) || S_ISLNK(status.st_mode))) {
      // O_NONBLOCK: a FIFO without a reader fails rather than waits.
      fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0644);
      if (fd >= 0) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    } else if (!exists || S_ISREG(status.st_mode)) {
      temporary.text(path);
      temporary.text(".tmp.");
      temporary.number(static_cast<uint64_t>(crash.pid));
      temporary.text(".crash");
      temporary.bytes[temporary.size] = '\0';  // room: the path is shorter than trace_pattern
      fd = ::open(temporary.bytes, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOCTTY, 0644);
    }
    opened = fd >= 0;
  }
  if (fd < 0) return say("perf: the crash trace cannot be written to '", path, "'\n");
  crash_output out(fd);
  write_trace(crash, out);
  const bool written = out.flush();
  if (opened) ::close(fd);
  if (!written) {
    if (temporary.size != 0) ::unlink(temporary.bytes);
    say("perf: the crash trace to '", path, "' is not written: ");
    return say(write_error_text(out.error()), "", "\n");
  }
  if (temporary.size != 0 && ::rename(temporary.bytes, path) != 0) {
    ::unlink(temporary.bytes);
    return say("perf: the crash trace cannot be renamed to '", path, "'\n");
  }
  say("perf: the crash trace is in '", path, "'\n");
}

// Where PERF_TRACE names a Perfetto trace, makes the fatal signals write one there
// from the rings, and maps the memory that takes.
PERF_RUNTIME_ON_START(install_crash_trace) {
  if (!current_settings().environment.ticks) return;
  const ticklog_config& config = current_ticklog_config();
  const std::string& pattern = config.trace_path;
  if (pattern.empty() || !is_perfetto_trace_path(pattern)) return;
  if (pattern.size() >= sizeof trace_pattern) {
    warn("PERF_TRACE is too long a path for the crash trace; a crash writes none");
    return;
  }
  copy_capacity = config.ring_events < max_copied_events ? config.ring_events : max_copied_events;
  const size_t bytes = out_capacity + events_bytes(copy_capacity);
  void* memory = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED) {
    warn("no memory for the crash trace; a crash writes none");
    return;
  }
  out_buffer = static_cast<char*>(memory);
  copied = reinterpret_cast<detail::tick_event*>(out_buffer + out_capacity);
  std::memcpy(trace_pattern, pattern.c_str(), pattern.size() + 1);
  use_alternate_signal_stacks();
  add_fatal_signal_handler(write_crash_trace);
}

}  // namespace
}  // namespace perf::runtime
