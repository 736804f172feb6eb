#include "ticklog/internal/perfetto_sequence.hpp"

#include <cerrno>

#include "report_format/protobuf_writer.hpp"
#include "ticklog/internal/perfetto_fields.hpp"
#include "ticklog/internal/perfetto_packets.hpp"

namespace perf::runtime {
namespace {

void append_packet(std::string& out, const protobuf_writer& packet) {
  protobuf_writer wrapper;
  wrapper.message_field(trace_fields::packet, packet);
  out += wrapper.bytes();
}

}  // namespace

std::string perfetto_process_packet(long pid) {
  protobuf_writer packet;
  make_process_packet<protobuf_writer>(packet, pid, program_invocation_short_name);
  std::string out;
  append_packet(out, packet);
  return out;
}

void perfetto_sequence::add_track(long pid, long tid, const std::string& name) {
  pid_ = pid;
  tid_ = tid;
  name_ = name;
  site_iids_.assign(site_iids_.size(), 0);
  begin_tails_.clear();  // they name the iids just forgotten
  label_iids_.clear();
  next_iid_ = 1;
  protobuf_writer packet;
  make_thread_track_packet<protobuf_writer>(packet, sequence_, track_, pid, tid,
                                            name.empty() ? "thread " + std::to_string(tid) : name);
  append_packet(out_, packet);
}

void perfetto_sequence::slice_begin(uint64_t ns, unsigned site, bool cut) {
  // The common case, a site interned already: its packet but the timestamp is made once.
  if (!cut && site < begin_tails_.size() && begin_tails_[site].size != 0)
    return append_timed_packet(ns, begin_tails_[site]);
  protobuf_writer event;
  start_event(event, event_fields::slice_begin, track_);
  if (cut) add_annotation(event, "cut", "entered before the first event kept");
  event.varint_field(event_fields::category_iids, category_iid);
  if (site >= site_iids_.size()) site_iids_.resize(site + 1, 0);
  const bool fresh = site_iids_[site] == 0;
  if (fresh) site_iids_[site] = next_iid_++;
  const uint64_t iid = site_iids_[site];
  event.varint_field(event_fields::name_iid, iid);
  event.varint_field(event_fields::source_location_iid, iid);
  protobuf_writer interned;
  if (fresh) {
    const site_info known = site < sites_.size() ? sites_[site] : site_info{"?", "", 0, 0};
    add_interned_name(interned, interned_fields::event_names, iid, known.name);
    protobuf_writer location;
    location.varint_field(location_fields::iid, iid);
    location.bytes_field(location_fields::file_name, known.file);
    location.bytes_field(location_fields::function_name, known.name);
    location.varint_field(location_fields::line_number, known.line);
    interned.message_field(interned_fields::source_locations, location);
  }
  add_event_packet(ns, event, interned);
  if (!cut) {  // a site interned by a cut slice's begin gets its tail at its first whole one
    if (begin_tails_.size() <= site) begin_tails_.resize(site + 1);
    keep_tail(begin_tails_[site], packet_tail(event, {}));
  }
}

void perfetto_sequence::slice_end(uint64_t ns) {
  if (end_tail_.size != 0) return append_timed_packet(ns, end_tail_);
  protobuf_writer event;
  start_event(event, event_fields::slice_end, track_);
  const std::string tail = packet_tail(event, {});
  if (!keep_tail(end_tail_, tail)) append_timed_packet(ns, tail);
  else append_timed_packet(ns, end_tail_);
}

void perfetto_sequence::tick(uint64_t ns, const event_copy& logged) {
  const std::string_view label =
      logged.label_length != 0 ? std::string_view(logged.label, logged.label_length) : "tick";
  protobuf_writer annotations;
  add_annotation(annotations, "n", logged.value);
  instant(ns, label, 0, annotations);
}

void perfetto_sequence::note(uint64_t ns, const std::string& text, const char* argument, uint64_t count) {
  protobuf_writer annotations;
  add_annotation(annotations, argument, static_cast<int64_t>(count));
  instant(ns, text, note_category_iid, annotations);
}

void perfetto_sequence::sample(uint64_t ns, const timed_sample& taken) {
  std::string stack;
  for (const std::string& function : taken.functions) (stack += function) += '\n';
  if (!stack.empty()) stack.pop_back();
  protobuf_writer annotations;
  add_annotation(annotations, "stack", std::string_view(stack));
  instant(ns, taken.functions.empty() ? "?" : taken.functions.front(), sample_category_iid, annotations);
}

void perfetto_sequence::instant(uint64_t ns, std::string_view name, uint64_t category,
                                const protobuf_writer& annotations) {
  if (label_iids_.size() >= max_interned_labels) add_track(pid_, tid_, name_);
  protobuf_writer event;
  start_event(event, event_fields::instant, track_);
  if (category != 0) event.varint_field(event_fields::category_iids, category);
  auto at = label_iids_.find(name);
  const bool fresh = at == label_iids_.end();
  if (fresh) at = label_iids_.emplace(std::string(name), next_iid_++).first;
  event.varint_field(event_fields::name_iid, at->second);
  event.append_fields(annotations);
  protobuf_writer interned;
  if (fresh) add_interned_name(interned, interned_fields::event_names, at->second, at->first);
  add_event_packet(ns, event, interned);
}

std::string perfetto_sequence::packet_tail(const protobuf_writer& event, const protobuf_writer& interned) const {
  protobuf_writer tail;
  add_event_fields(tail, sequence_, event, interned);
  return tail.bytes();
}

bool perfetto_sequence::keep_tail(kept_tail& kept, const std::string& tail) {
  if (tail.size() > kept_tail::capacity) return false;
  __builtin_memcpy(kept.bytes, tail.data(), tail.size());
  kept.size = tail.size();
  return true;
}

namespace {

constexpr size_t max_packet_head = 4 * protobuf_writer::max_varint_size;

// A timed packet's bytes before its tail: its key and length, and its timestamp.
char* put_packet_head(char* at, uint64_t ns, size_t tail_size) {
  const uint64_t timestamp = key(packet_fields::timestamp, 0);
  at = protobuf_writer::put_varint(at, key(trace_fields::packet, 2));
  at = protobuf_writer::put_varint(
      at, protobuf_writer::varint_size(timestamp) + protobuf_writer::varint_size(ns) + tail_size);
  at = protobuf_writer::put_varint(at, timestamp);
  return protobuf_writer::put_varint(at, ns);
}

}  // namespace

void perfetto_sequence::append_timed_packet(uint64_t ns, const std::string& tail) {
  char head[max_packet_head];
  out_.append(head, static_cast<size_t>(put_packet_head(head, ns, tail.size()) - head));
  out_ += tail;
}

// The streamed trace pays this for nearly every event: the packet laid out on the
// stack and appended at once, no call but the append's copy.
void perfetto_sequence::append_timed_packet(uint64_t ns, const kept_tail& tail) {
  char packet[max_packet_head + kept_tail::capacity];
  char* const at = put_packet_head(packet, ns, tail.size);
  __builtin_memcpy(at, tail.bytes, kept_tail::capacity);
  out_.append(packet, static_cast<size_t>(at - packet) + tail.size);
}

void perfetto_sequence::add_event_packet(uint64_t ns, const protobuf_writer& event, const protobuf_writer& interned) {
  append_timed_packet(ns, packet_tail(event, interned));
}

}  // namespace perf::runtime
