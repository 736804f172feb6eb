// A Perfetto trace of the runtime's (the fields of perfetto_subset.proto) read from
// its protocol buffers directly, for traces too large for protoc's text: what the
// trace holds, with Perfetto's structural rules checked on the way (a broken rule
// fails the calling test): an event's track described before it, its names interned
// on its sequence, timestamps in order per track, every slice ended on its own track.
#ifndef PERF_TEST_RUNTIME_TICKLOG_PERFETTO_READER_HPP
#define PERF_TEST_RUNTIME_TICKLOG_PERFETTO_READER_HPP

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "probe_runner.hpp"

namespace perf::testing {

struct perfetto_trace {
  std::map<std::string, uint64_t> slices, ticks;  // by name
  std::map<std::string, uint64_t> notes;          // the runtime's (category "perf"), by text
  std::map<std::string, uint64_t> note_times;     // the time of the last of each note, by text
  uint64_t lost_in_notes = 0;                     // the sum of the notes' `lost`
  std::set<std::string> threads;                  // the thread tracks' names
  uint64_t tracks = 0;                            // thread tracks
  uint64_t unclosed = 0;                          // slices begun and not ended
  // Per thread track name, the slices' [begin, end] times in nanoseconds, by name
  // (end UINT64_MAX: not ended).
  std::map<std::string, std::map<std::string, std::vector<std::pair<uint64_t, uint64_t>>>> spans;
  // Per thread track name, the slices whose begin says they were open at a crash (the
  // debug annotation `crash`), by name.
  std::map<std::string, std::map<std::string, uint64_t>> open_at_crash;
  // Per thread track name, the sampler's samples (category "sample"): their times and
  // stacks (the debug annotation `stack`: functions innermost first, one a line).
  std::map<std::string, std::vector<std::pair<uint64_t, std::string>>> samples;
  // Per thread track name, the ticks' times and values, by label.
  std::map<std::string, std::map<std::string, std::vector<std::pair<uint64_t, int64_t>>>> tick_values;
};

// Calls `field(number, value, bytes)` for each field of the message `bytes`: `value`
// for a varint, `bytes` for a length-delimited field. False if it is malformed.
inline bool for_each_field(std::string_view message,
                           const std::function<void(unsigned, uint64_t, std::string_view)>& field) {
  size_t at = 0;
  const auto varint = [&](uint64_t& value) {
    value = 0;
    for (unsigned shift = 0; at < message.size() && shift < 64; shift += 7) {
      const auto byte = static_cast<unsigned char>(message[at++]);
      value |= uint64_t{byte & 0x7fu} << shift;
      if ((byte & 0x80) == 0) return true;
    }
    return false;
  };
  while (at < message.size()) {
    uint64_t key = 0, value = 0;
    if (!varint(key)) return false;
    if ((key & 7) == 0) {
      if (!varint(value)) return false;
      field(static_cast<unsigned>(key >> 3), value, {});
    } else if ((key & 7) == 2) {
      if (!varint(value) || value > message.size() - at) return false;
      field(static_cast<unsigned>(key >> 3), 0, message.substr(at, value));
      at += value;
    } else {
      return false;  // the runtime writes no other wire type
    }
  }
  return true;
}

inline perfetto_trace read_perfetto_trace(const std::filesystem::path& path) {
  perfetto_trace trace;
  const std::string bytes = read_file(path);
  std::map<uint64_t, std::map<uint64_t, std::string>> names, categories;   // sequence -> iid -> name
  std::map<uint64_t, std::string> thread_of_track;                         // uuid -> name
  std::map<uint64_t, std::vector<std::pair<std::string, uint64_t>>> open;  // track -> (name, begin)
  std::map<uint64_t, uint64_t> last_time;                                  // track -> timestamp
  const bool whole = for_each_field(bytes, [&](unsigned number, uint64_t, std::string_view packet) {
    EXPECT_EQ(number, 1u);
    uint64_t time = 0, sequence = 0, flags = 0;
    std::string_view event, interned, descriptor;
    for_each_field(packet, [&](unsigned field, uint64_t value, std::string_view data) {
      if (field == 8) time = value;
      if (field == 10) sequence = value;
      if (field == 11) event = data;
      if (field == 12) interned = data;
      if (field == 13) flags = value;
      if (field == 60) descriptor = data;
    });
    if (flags & 1) names[sequence].clear(), categories[sequence].clear();
    for_each_field(interned, [&](unsigned field, uint64_t, std::string_view entry) {
      uint64_t iid = 0;
      std::string name;
      for_each_field(entry, [&](unsigned f, uint64_t value, std::string_view data) {
        if (f == 1) iid = value;
        if (f == 2 && field != 4) name = data;
      });
      if (field == 1) categories[sequence][iid] = name;
      if (field == 2) names[sequence][iid] = name;
    });
    if (!descriptor.empty()) {
      uint64_t uuid = 0;
      std::string thread_name;
      bool thread = false;
      for_each_field(descriptor, [&](unsigned field, uint64_t value, std::string_view data) {
        if (field == 1) uuid = value;
        if (field == 4) {
          thread = true;
          for_each_field(data, [&](unsigned f, uint64_t, std::string_view name) {
            if (f == 5) thread_name = name;
          });
        }
      });
      if (thread) {
        if (thread_of_track.count(uuid) == 0) ++trace.tracks;
        thread_of_track[uuid] = thread_name;
        trace.threads.insert(thread_name);
      }
    }
    if (event.empty()) return;
    uint64_t type = 0, name_iid = 0, category = 0, track = 0;
    std::string argument, argument_text;
    int64_t argument_value = 0;
    for_each_field(event, [&](unsigned field, uint64_t value, std::string_view data) {
      if (field == 9) type = value;
      if (field == 10) name_iid = value;
      if (field == 3) category = value;
      if (field == 11) track = value;
      if (field == 4)
        for_each_field(data, [&](unsigned f, uint64_t v, std::string_view text) {
          if (f == 10) argument = text;
          if (f == 4) argument_value = static_cast<int64_t>(v);
          if (f == 6) argument_text = text;
        });
    });
    if (thread_of_track.count(track) == 0) {
      ADD_FAILURE() << "an event on track " << track << " before its descriptor";
      return;
    }
    EXPECT_GE(time, last_time[track]) << "timestamps in order on track " << track;
    last_time[track] = time;
    const std::string& thread = thread_of_track[track];
    if (type == 2) {
      if (open[track].empty()) {
        ADD_FAILURE() << "an end without its begin on track " << track;
        return;
      }
      trace.spans[thread][open[track].back().first].push_back({open[track].back().second, time});
      open[track].pop_back();
      return;
    }
    if (names[sequence].count(name_iid) == 0) {
      ADD_FAILURE() << "name " << name_iid << " not interned on sequence " << sequence;
      return;
    }
    const std::string& name = names[sequence][name_iid];
    if (type == 1) {
      ++trace.slices[name];
      open[track].push_back({name, time});
      if (argument == "crash") ++trace.open_at_crash[thread][name];
    } else if (type == 3 && categories[sequence][category] == "perf") {
      ++trace.notes[name];
      trace.note_times[name] = time;
      if (argument == "lost") trace.lost_in_notes += static_cast<uint64_t>(argument_value);
    } else if (type == 3 && categories[sequence][category] == "sample") {
      trace.samples[thread].push_back({time, argument_text});
    } else if (type == 3) {
      ++trace.ticks[name];
      trace.tick_values[thread][name].push_back({time, argument_value});
    } else {
      ADD_FAILURE() << "an event of type " << type;
    }
  });
  EXPECT_TRUE(whole) << path << " is not a whole protocol buffers message";
  for (const auto& [track, slices] : open) {
    trace.unclosed += slices.size();
    for (const auto& [name, begin] : slices) trace.spans[thread_of_track[track]][name].push_back({begin, UINT64_MAX});
  }
  return trace;
}

}  // namespace perf::testing

#endif  // PERF_TEST_RUNTIME_TICKLOG_PERFETTO_READER_HPP
