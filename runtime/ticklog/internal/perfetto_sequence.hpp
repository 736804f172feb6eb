// The packets of a Perfetto trace (Perfetto's public schema,
// perfetto/trace/trace.proto; the fields written are listed in
// test/runtime/ticklog/perfetto_subset.proto), written one at a time: what both the
// trace at exit (internal/perfetto_trace.hpp) and the streamed trace
// (ticklog/trace_stream.hpp) are made of. A trace is the process's packet, then per
// thread a sequence of its own: its track, named like the thread, under the
// process's track, then its events in the order logged, each packet carrying the
// names and source locations it is first to use (interned once per sequence).
// Not thread-safe: one caller at a time per object.
#ifndef PERF_RUNTIME_TICKLOG_INTERNAL_PERFETTO_SEQUENCE_HPP
#define PERF_RUNTIME_TICKLOG_INTERNAL_PERFETTO_SEQUENCE_HPP

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/sites.hpp"
#include "core/timed_samples.hpp"
#include "report_format/protobuf_writer.hpp"
#include "ticklog/rings.hpp"

namespace perf::runtime {

// The process's track descriptor (its pid and name): the trace's first packet.
std::string perfetto_process_packet(long pid);

// A trace's timestamp: the nanoseconds from `origin` to clock value `ticks`, rounded to
// the nearest (0 before `origin`). Inline, no libm call: the streamed trace's writer
// converts every event.
inline uint64_t perfetto_time_ns(uint64_t ticks, uint64_t origin, double ticks_per_ns) {
  return ticks > origin ? static_cast<uint64_t>(static_cast<double>(ticks - origin) / ticks_per_ns + 0.5) : 0;
}

// The track uuid of the `n`th thread sequence (from 0) and its sequence id.
inline uint64_t perfetto_thread_track(uint64_t n) { return 2 + n; }
inline uint32_t perfetto_sequence_id(uint64_t n) { return static_cast<uint32_t>(2 + n); }

// One thread's sequence, appended to `out`. `sites` (index = site id) may grow
// between calls: a site's name and location are read when the sequence first uses it.
class perfetto_sequence {
 public:
  // A sequence holds at most this many interned tick labels: a program that ticks
  // with ever new labels clears the sequence's interned state and starts again, so
  // that what it holds stays bounded.
  static constexpr size_t max_interned_labels = 1024;

  perfetto_sequence(std::string& out, uint64_t n, const std::vector<site_info>& sites)
      : out_(out), sequence_(perfetto_sequence_id(n)), track_(perfetto_thread_track(n)), sites_(sites) {}

  // The thread's track, named `name` ("thread <tid>" when empty); starts the sequence
  // (its interned state cleared). Called again, it renames the track and starts over.
  void add_track(long pid, long tid, const std::string& name);

  // `cut`: the scope was entered before the first event kept (said as the debug
  // annotation `cut`).
  void slice_begin(uint64_t ns, unsigned site, bool cut);
  void slice_end(uint64_t ns);
  // A tick: an instant named by its label ("tick" without one), its value as `n`.
  void tick(uint64_t ns, const event_copy& logged);
  // The runtime's note `text` (category "perf"), with the number `count` as the
  // debug annotation `argument`.
  void note(uint64_t ns, const std::string& text, const char* argument, uint64_t count);
  // A sample of the sampler's: an instant of category "sample" named by its innermost
  // function ("?" for a stack without any), its functions innermost first, one a line,
  // as the debug annotation `stack`.
  void sample(uint64_t ns, const timed_sample& taken);

 private:
  // An instant named `name`, of category `category` (0: none), with the debug
  // annotations `annotations` wrote.
  void instant(uint64_t ns, std::string_view name, uint64_t category, const protobuf_writer& annotations);
  // A packet's bytes after its timestamp (its sequence, flags and event) kept for every
  // event of one kind: copied with one move of fixed size, the packet with one append.
  struct kept_tail {
    static constexpr size_t capacity = 48;
    char bytes[capacity] = {};
    size_t size = 0;  // 0: none kept (not made yet, or longer than capacity)
  };

  void add_event_packet(uint64_t ns, const protobuf_writer& event, const protobuf_writer& interned);
  // A packet's bytes after its timestamp: its sequence, flags, event and interned data.
  std::string packet_tail(const protobuf_writer& event, const protobuf_writer& interned) const;
  // `tail` kept in `kept` if it fits; false otherwise.
  static bool keep_tail(kept_tail& kept, const std::string& tail);
  void append_timed_packet(uint64_t ns, const std::string& tail);
  void append_timed_packet(uint64_t ns, const kept_tail& tail);

  std::string& out_;
  uint32_t sequence_;
  uint64_t track_;
  const std::vector<site_info>& sites_;
  long pid_ = 0, tid_ = 0;
  std::string name_;
  // Event names share one iid space: a site's name and location take the same iid.
  std::vector<uint64_t> site_iids_;  // index = site id; 0: not interned yet
  // The packet tails of a slice's begin without `cut` (index = site id; empty: not made
  // since the sequence last started) and of its end.
  std::vector<kept_tail> begin_tails_;
  kept_tail end_tail_;
  std::map<std::string, uint64_t, std::less<>> label_iids_;
  uint64_t next_iid_ = 1;
};

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_TICKLOG_INTERNAL_PERFETTO_SEQUENCE_HPP
