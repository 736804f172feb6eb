#include "ticklog/internal/perfetto_trace.hpp"

#include <cerrno>
#include <cmath>
#include <map>
#include <optional>
#include <utility>

#include "report_format/protobuf_writer.hpp"
#include "ticklog/internal/spans.hpp"

namespace perf::runtime {
namespace {

// Field numbers of Perfetto's trace schema, by message.
namespace trace_fields {
constexpr unsigned packet = 1;
}
namespace packet_fields {
constexpr unsigned timestamp = 8, sequence_id = 10, track_event = 11, interned_data = 12, sequence_flags = 13,
                   track_descriptor = 60;
constexpr uint64_t incremental_state_cleared = 1, needs_incremental_state = 2;
}  // namespace packet_fields
namespace track_fields {
constexpr unsigned uuid = 1, process = 3, thread = 4, parent_uuid = 5;
}
namespace process_fields {
constexpr unsigned pid = 1, process_name = 6;
}
namespace thread_fields {
constexpr unsigned pid = 1, tid = 2, thread_name = 5;
}
namespace event_fields {
constexpr unsigned category_iids = 3, debug_annotations = 4, type = 9, name_iid = 10, track_uuid = 11,
                   source_location_iid = 34;
constexpr uint64_t slice_begin = 1, slice_end = 2, instant = 3;
}  // namespace event_fields
namespace annotation_fields {
constexpr unsigned int_value = 4, string_value = 6, name = 10;
}
namespace interned_fields {
constexpr unsigned event_categories = 1, event_names = 2, source_locations = 4;
}
namespace name_fields {  // EventCategory and EventName
constexpr unsigned iid = 1, name = 2;
}
namespace location_fields {
constexpr unsigned iid = 1, file_name = 2, function_name = 3, line_number = 4;
}

constexpr uint64_t process_track = 1;
constexpr uint64_t category_iid = 1;       // "measured", every slice's
constexpr uint64_t note_category_iid = 2;  // "perf", the runtime's own notes

void append_packet(std::string& out, const protobuf_writer& packet) {
  protobuf_writer wrapper;
  wrapper.bytes_field(trace_fields::packet, packet.bytes());
  out += wrapper.bytes();
}

protobuf_writer interned_string(uint64_t iid, const std::string& name) {
  protobuf_writer entry;
  entry.varint_field(name_fields::iid, iid);
  entry.bytes_field(name_fields::name, name);
  return entry;
}

// One thread's packets on a sequence of its own: its track, then its events in the
// order logged, each packet carrying the names and locations it is first to use.
class thread_sequence {
 public:
  thread_sequence(std::string& out, uint32_t sequence, uint64_t track, const std::vector<site_info>& sites)
      : out_(out), sequence_(sequence), track_(track), sites_(sites) {}

  void add_track(const thread_ticks& thread, long pid) {
    protobuf_writer descriptor;
    descriptor.varint_field(track_fields::uuid, track_);
    descriptor.varint_field(track_fields::parent_uuid, process_track);
    protobuf_writer about;
    about.varint_field(thread_fields::pid, static_cast<uint64_t>(pid));
    about.varint_field(thread_fields::tid, static_cast<uint64_t>(thread.tid));
    about.bytes_field(thread_fields::thread_name,
                      thread.name.empty() ? "thread " + std::to_string(thread.tid) : thread.name);
    descriptor.bytes_field(track_fields::thread, about.bytes());
    protobuf_writer packet;
    packet.bytes_field(packet_fields::track_descriptor, descriptor.bytes());
    packet.varint_field(packet_fields::sequence_id, sequence_);
    packet.varint_field(packet_fields::sequence_flags, packet_fields::incremental_state_cleared);
    protobuf_writer interned;
    interned.bytes_field(interned_fields::event_categories, interned_string(category_iid, "measured").bytes());
    interned.bytes_field(interned_fields::event_categories, interned_string(note_category_iid, "perf").bytes());
    packet.bytes_field(packet_fields::interned_data, interned.bytes());
    append_packet(out_, packet);
  }

  // `cut`: the scope was entered before the first event kept (said as the debug
  // annotation `cut`).
  void slice_begin(uint64_t ns, unsigned site, bool cut) {
    protobuf_writer event = event_of(event_fields::slice_begin);
    if (cut) {
      protobuf_writer annotation;
      annotation.bytes_field(annotation_fields::name, "cut");
      annotation.bytes_field(annotation_fields::string_value, "entered before the first event kept");
      event.bytes_field(event_fields::debug_annotations, annotation.bytes());
    }
    event.varint_field(event_fields::category_iids, category_iid);
    const auto [iid, fresh] = site_iid(site);
    event.varint_field(event_fields::name_iid, iid);
    event.varint_field(event_fields::source_location_iid, iid);
    protobuf_writer interned;
    if (fresh) {
      const site_info known = site < sites_.size() ? sites_[site] : site_info{"?", "", 0, 0};
      interned.bytes_field(interned_fields::event_names, interned_string(iid, known.name).bytes());
      protobuf_writer location;
      location.varint_field(location_fields::iid, iid);
      location.bytes_field(location_fields::file_name, known.file);
      location.bytes_field(location_fields::function_name, known.name);
      location.varint_field(location_fields::line_number, known.line);
      interned.bytes_field(interned_fields::source_locations, location.bytes());
    }
    add_event_packet(ns, event, interned);
  }

  void slice_end(uint64_t ns) { add_event_packet(ns, event_of(event_fields::slice_end), {}); }

  void tick(uint64_t ns, const event_copy& logged) {
    const std::string label = logged.label_length != 0 ? std::string(logged.label, logged.label_length) : "tick";
    instant(ns, label, std::nullopt, "n", logged.value);
  }

  // The runtime's note `text` (category "perf"), with the number `dropped`.
  void note(uint64_t ns, const std::string& text, uint64_t dropped) {
    instant(ns, text, note_category_iid, "dropped", static_cast<int64_t>(dropped));
  }

 private:
  void instant(uint64_t ns, const std::string& name, std::optional<uint64_t> category, const char* argument,
               int64_t value) {
    protobuf_writer event = event_of(event_fields::instant);
    if (category) event.varint_field(event_fields::category_iids, *category);
    const auto [iid, fresh] = label_iid(name);
    event.varint_field(event_fields::name_iid, iid);
    protobuf_writer annotation;
    annotation.bytes_field(annotation_fields::name, argument);
    annotation.varint_field(annotation_fields::int_value, static_cast<uint64_t>(value));
    event.bytes_field(event_fields::debug_annotations, annotation.bytes());
    protobuf_writer interned;
    if (fresh) interned.bytes_field(interned_fields::event_names, interned_string(iid, name).bytes());
    add_event_packet(ns, event, interned);
  }

  protobuf_writer event_of(uint64_t type) const {
    protobuf_writer event;
    event.varint_field(event_fields::type, type);
    event.varint_field(event_fields::track_uuid, track_);
    return event;
  }

  void add_event_packet(uint64_t ns, const protobuf_writer& event, const protobuf_writer& interned) {
    protobuf_writer packet;
    packet.varint_field(packet_fields::timestamp, ns);
    packet.varint_field(packet_fields::sequence_id, sequence_);
    packet.varint_field(packet_fields::sequence_flags, packet_fields::needs_incremental_state);
    packet.bytes_field(packet_fields::track_event, event.bytes());
    if (!interned.bytes().empty()) packet.bytes_field(packet_fields::interned_data, interned.bytes());
    append_packet(out_, packet);
  }

  // Event names share one iid space: a site's name and location take the same iid.
  std::pair<uint64_t, bool> site_iid(unsigned site) { return intern(site_iids_, site); }
  std::pair<uint64_t, bool> label_iid(const std::string& label) { return intern(label_iids_, label); }
  template <class Key>
  std::pair<uint64_t, bool> intern(std::map<Key, uint64_t>& iids, const Key& key) {
    const auto [at, fresh] = iids.emplace(key, next_iid_);
    if (fresh) ++next_iid_;
    return {at->second, fresh};
  }

  std::string& out_;
  uint32_t sequence_;
  uint64_t track_;
  const std::vector<site_info>& sites_;
  std::map<unsigned, uint64_t> site_iids_;
  std::map<std::string, uint64_t> label_iids_;
  uint64_t next_iid_ = 1;
};

}  // namespace

bool is_perfetto_trace_path(std::string_view path) {
  return path.ends_with(".pftrace") || path.ends_with(".perfetto-trace");
}

std::string format_perfetto_trace(const tick_view& view, double ticks_per_ns, long pid) {
  const uint64_t origin = first_event_time(view);
  const auto ns = [&](uint64_t ticks) {
    return ticks > origin ? static_cast<uint64_t>(std::llround(static_cast<double>(ticks - origin) / ticks_per_ns)) : 0;
  };
  std::string out;
  {
    protobuf_writer process;
    process.varint_field(process_fields::pid, static_cast<uint64_t>(pid));
    process.bytes_field(process_fields::process_name, program_invocation_short_name);
    protobuf_writer descriptor;
    descriptor.varint_field(track_fields::uuid, process_track);
    descriptor.bytes_field(track_fields::process, process.bytes());
    protobuf_writer packet;
    packet.bytes_field(packet_fields::track_descriptor, descriptor.bytes());
    packet.varint_field(packet_fields::sequence_id, 1);
    append_packet(out, packet);
  }
  for (size_t t = 0; t < view.threads.size(); ++t) {
    const thread_ticks& thread = view.threads[t];
    thread_sequence sequence(out, static_cast<uint32_t>(t + 2), process_track + 1 + t, view.sites);
    sequence.add_track(thread, pid);
    const std::vector<event_copy>& events = thread.contents.events;
    if (thread.contents.dropped != 0 && !events.empty())
      sequence.note(ns(events.front().time), late_start_note(thread.contents), thread.contents.dropped);
    const std::vector<span_role> roles = span_roles(events);
    // The scopes entered before the first event begin there, the outermost (the last
    // to end) first.
    for (size_t i = events.size(); i-- > 0;)
      if (roles[i].kind == span_role::ends_cut) sequence.slice_begin(ns(events.front().time), events[i].site, true);
    for (size_t i = 0; i < events.size(); ++i) {
      switch (roles[i].kind) {
        case span_role::begins:
        case span_role::open: sequence.slice_begin(ns(events[i].time), events[i].site, false); break;
        case span_role::ends:
        case span_role::ends_cut: sequence.slice_end(ns(events[i].time)); break;
        case span_role::tick: sequence.tick(ns(events[i].time), events[i]); break;
        case span_role::left_out: break;
      }
    }
  }
  return out;
}

}  // namespace perf::runtime
