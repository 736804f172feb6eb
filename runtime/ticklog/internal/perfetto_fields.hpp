// The numbers of the fields of Perfetto's public trace schema that the runtime's
// Perfetto traces write (test/runtime/ticklog/perfetto_subset.proto lists them), and
// the ids every such trace gives its process track and its two categories: shared by
// the encoder of the traces at exit, streamed and captured
// (internal/perfetto_sequence.hpp) and the crash's (crash_trace.cpp).
#ifndef PERF_RUNTIME_TICKLOG_INTERNAL_PERFETTO_FIELDS_HPP
#define PERF_RUNTIME_TICKLOG_INTERNAL_PERFETTO_FIELDS_HPP

#include <cstdint>

namespace perf::runtime {

// Field numbers, by message.
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

// A field's key: its number and wire type (0 varint, 2 length-delimited).
constexpr uint64_t key(unsigned field, unsigned wire_type) { return uint64_t{field} << 3 | wire_type; }

constexpr uint64_t process_track = 1;
constexpr uint64_t category_iid = 1;         // "measured", every slice's
constexpr uint64_t note_category_iid = 2;    // "perf", the runtime's own notes
constexpr uint64_t sample_category_iid = 3;  // "sample", the sampler's samples in a capture

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_TICKLOG_INTERNAL_PERFETTO_FIELDS_HPP
