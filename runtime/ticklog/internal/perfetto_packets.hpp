// The messages of a Perfetto trace that every encoder of one writes alike: the
// sequences of the traces at exit, streamed and captured (perfetto_sequence.hpp) and
// the crash's (crash_trace.cpp), which may not allocate. Each is built into message
// writers of the caller's kind: protobuf_writer, or fixed_protobuf_writer in a signal
// handler (both have varint_field, bytes_field, message_field and size). `Part` is
// the writer of a packet's parts (its event, its interned data), `Packet` the
// packet's. The field numbers are perfetto_fields.hpp's. Async-signal-safe with
// fixed writers.
#ifndef PERF_RUNTIME_TICKLOG_INTERNAL_PERFETTO_PACKETS_HPP
#define PERF_RUNTIME_TICKLOG_INTERNAL_PERFETTO_PACKETS_HPP

#include <cstdint>
#include <string_view>

#include "ticklog/internal/perfetto_fields.hpp"

namespace perf::runtime {

// Adds the EventCategory or EventName (`field` of InternedData) `name` under `iid`.
template <class Part>
void add_interned_name(Part& interned, unsigned field, uint64_t iid, std::string_view name) {
  Part entry;
  entry.varint_field(name_fields::iid, iid);
  entry.bytes_field(name_fields::name, name);
  interned.message_field(field, entry);
}

// Adds to `event` the debug annotation `name` with the text `text`.
template <class Part>
void add_annotation(Part& event, std::string_view name, std::string_view text) {
  Part annotation;
  annotation.bytes_field(annotation_fields::name, name);
  annotation.bytes_field(annotation_fields::string_value, text);
  event.message_field(event_fields::debug_annotations, annotation);
}

// Adds to `event` the debug annotation `name` with the integer `value`.
template <class Part>
void add_annotation(Part& event, std::string_view name, int64_t value) {
  Part annotation;
  annotation.bytes_field(annotation_fields::name, name);
  annotation.varint_field(annotation_fields::int_value, static_cast<uint64_t>(value));
  event.message_field(event_fields::debug_annotations, annotation);
}

// The process's track (its pid and name): a trace's first packet.
template <class Part, class Packet>
void make_process_packet(Packet& packet, long pid, std::string_view name) {
  Part process;
  process.varint_field(process_fields::pid, static_cast<uint64_t>(pid));
  process.bytes_field(process_fields::process_name, name);
  Part descriptor;
  descriptor.varint_field(track_fields::uuid, process_track);
  descriptor.message_field(track_fields::process, process);
  packet.message_field(packet_fields::track_descriptor, descriptor);
  packet.varint_field(packet_fields::sequence_id, 1);
}

// The first packet of a thread's sequence `sequence`: its track `track`, named `name`,
// under the process's, the sequence's interned state cleared and the categories
// interned afresh.
template <class Part, class Packet>
void make_thread_track_packet(Packet& packet, uint32_t sequence, uint64_t track, long pid, long tid,
                              std::string_view name) {
  Part about;
  about.varint_field(thread_fields::pid, static_cast<uint64_t>(pid));
  about.varint_field(thread_fields::tid, static_cast<uint64_t>(tid));
  about.bytes_field(thread_fields::thread_name, name);
  Part descriptor;
  descriptor.varint_field(track_fields::uuid, track);
  descriptor.varint_field(track_fields::parent_uuid, process_track);
  descriptor.message_field(track_fields::thread, about);
  Part interned;
  add_interned_name(interned, interned_fields::event_categories, category_iid, "measured");
  add_interned_name(interned, interned_fields::event_categories, note_category_iid, "perf");
  add_interned_name(interned, interned_fields::event_categories, sample_category_iid, "sample");
  packet.message_field(packet_fields::track_descriptor, descriptor);
  packet.varint_field(packet_fields::sequence_id, sequence);
  packet.varint_field(packet_fields::sequence_flags, packet_fields::incremental_state_cleared);
  packet.message_field(packet_fields::interned_data, interned);
}

// A TrackEvent of type `type` (event_fields::slice_begin, slice_end, instant) on
// `track`; the caller adds its category, name and annotations.
template <class Part>
void start_event(Part& event, uint64_t type, uint64_t track) {
  event.varint_field(event_fields::type, type);
  event.varint_field(event_fields::track_uuid, track);
}

// The fields of an event's packet after its timestamp: its sequence `sequence`, whose
// interned state it needs, the event, and the names and locations it is first to use
// (`interned`, left out when empty).
template <class Packet, class Part>
void add_event_fields(Packet& packet, uint32_t sequence, const Part& event, const Part& interned) {
  packet.varint_field(packet_fields::sequence_id, sequence);
  packet.varint_field(packet_fields::sequence_flags, packet_fields::needs_incremental_state);
  packet.message_field(packet_fields::track_event, event);
  if (interned.size() != 0) packet.message_field(packet_fields::interned_data, interned);
}

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_TICKLOG_INTERNAL_PERFETTO_PACKETS_HPP
