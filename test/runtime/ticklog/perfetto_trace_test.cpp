// PERF_TRACE=*.pftrace: the tick log as a Perfetto trace, read back by protoc (the
// protocol buffers compiler, decoding against perfetto_subset.proto) and checked as
// Perfetto's importer needs it: a track per thread under the process's, every slice
// ended on its own track and nested, timestamps in order, names and source locations
// interned before use. Drives tick_probe (see its header for what it logs).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "probe_runner.hpp"
#include "ticklog/internal/perfetto_trace.hpp"
#include "ticklog/perfetto_reader.hpp"
#include "ticklog/protoc_decode.hpp"

namespace {

namespace fs = std::filesystem;
using PerfettoTrace = perf::testing::ProbeTest;

// A message as protoc's text format prints it: scalar fields (strings unquoted) and
// embedded messages, each in the order printed.
struct message {
  std::multimap<std::string, std::string> fields;
  std::vector<std::pair<std::string, std::unique_ptr<message>>> children;

  std::string field(const std::string& name) const {
    const auto found = fields.find(name);
    return found == fields.end() ? "" : found->second;
  }
  const message* child(const std::string& name) const {
    for (const auto& [key, value] : children)
      if (key == name) return value.get();
    return nullptr;
  }
  std::vector<const message*> all(const std::string& name) const {
    std::vector<const message*> found;
    for (const auto& [key, value] : children)
      if (key == name) found.push_back(value.get());
    return found;
  }
};

// Parses protoc --decode's output (one field or brace per line).
message parse_text_format(const std::string& text) {
  message root;
  std::vector<message*> open{&root};
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    line.erase(0, line.find_first_not_of(' '));
    if (line.empty()) continue;
    if (line == "}") {
      open.pop_back();
    } else if (line.back() == '{') {
      auto child = std::make_unique<message>();
      message* raw = child.get();
      open.back()->children.emplace_back(line.substr(0, line.find(' ')), std::move(child));
      open.push_back(raw);
    } else {
      const size_t colon = line.find(": ");
      std::string value = line.substr(colon + 2);
      if (value.size() >= 2 && value.front() == '"') value = value.substr(1, value.size() - 2);
      open.back()->fields.emplace(line.substr(0, colon), value);
    }
  }
  return root;
}

TEST(PerfettoTracePath, PftraceAndPerfettoTraceNameTheProtobufFormat) {
  EXPECT_TRUE(perf::runtime::is_perfetto_trace_path("run.pftrace"));
  EXPECT_TRUE(perf::runtime::is_perfetto_trace_path("/tmp/run-%p.perfetto-trace"));
  EXPECT_FALSE(perf::runtime::is_perfetto_trace_path("run.json"));
  EXPECT_FALSE(perf::runtime::is_perfetto_trace_path("pftrace"));
}

// What a trace holds, read back through protoc, with Perfetto's structural rules
// checked on the way (a failed rule fails the calling test).
struct trace_summary {
  std::map<std::string, int> slices, ticks;  // by name
  std::map<std::string, int> notes;          // the runtime's own (category "perf"), by text
  std::vector<std::string> threads;          // the thread tracks' names, sorted
  // Per thread track, the slices begun in order (" (cut)" after those that say their
  // enter was overwritten) and each begin's time.
  std::map<std::string, std::vector<std::pair<std::string, uint64_t>>> begun;
};

trace_summary read_trace(const fs::path& path) {
  trace_summary summary;
  int status = 0;
  const std::string text = perf::testing::protoc_decode(path, &status);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << text;
  const message trace = parse_text_format(text);
  std::string process_uuid;
  std::map<std::string, std::string> thread_of_track;                           // track uuid -> thread name
  std::map<std::string, std::map<std::string, std::string>> names, categories;  // sequence -> iid -> name
  std::map<std::string, std::vector<std::string>> open;                         // track -> slice names
  std::map<std::string, uint64_t> last_time;                                    // track -> timestamp
  for (const message* packet : trace.all("packet")) {
    const std::string sequence = packet->field("trusted_packet_sequence_id");
    EXPECT_NE(sequence, "") << "every packet is on a sequence";
    if (const message* interned = packet->child("interned_data")) {
      for (const message* entry : interned->all("event_names"))
        names[sequence][entry->field("iid")] = entry->field("name");
      for (const message* entry : interned->all("event_categories"))
        categories[sequence][entry->field("iid")] = entry->field("name");
    }
    if (const message* track = packet->child("track_descriptor")) {
      if (const message* process = track->child("process")) {
        EXPECT_EQ(process->field("process_name"), fs::path(PERF_TICK_PROBE).filename().string());
        process_uuid = track->field("uuid");
      } else if (const message* thread = track->child("thread")) {
        EXPECT_EQ(track->field("parent_uuid"), process_uuid) << "thread tracks come under the process's";
        EXPECT_EQ(packet->field("sequence_flags"), "1") << "a thread's sequence starts cleared";
        thread_of_track[track->field("uuid")] = thread->field("thread_name");
      } else {
        ADD_FAILURE() << "a track of neither the process nor a thread\n" << text;
      }
    }
    const message* event = packet->child("track_event");
    if (event == nullptr) continue;
    EXPECT_EQ(packet->field("sequence_flags"), "2");
    const std::string track = event->field("track_uuid"), type = event->field("type");
    if (thread_of_track.count(track) == 0) {
      ADD_FAILURE() << "an event on track " << track << " before its descriptor";
      continue;
    }
    const uint64_t time = std::stoull(packet->field("timestamp"));
    EXPECT_GE(time, last_time[track]) << "timestamps in order on track " << track;
    last_time[track] = time;
    const std::string name = type == "TYPE_SLICE_END" ? "" : names[sequence][event->field("name_iid")];
    const message* annotation = event->child("debug_annotations");
    if (type == "TYPE_SLICE_BEGIN") {
      ++summary.slices[name];
      open[track].push_back(name);
      const bool cut = annotation != nullptr && annotation->field("name") == "cut";
      if (cut) { EXPECT_EQ(annotation->field("string_value"), "entered before the first event kept"); }
      summary.begun[thread_of_track[track]].push_back({name + (cut ? " (cut)" : ""), time});
      EXPECT_EQ(categories[sequence][event->field("category_iids")], "measured");
      const message* interned = packet->child("interned_data");
      if (interned != nullptr && interned->child("source_locations") != nullptr) {
        const message* location = interned->child("source_locations");
        EXPECT_EQ(location->field("iid"), event->field("source_location_iid"));
        EXPECT_EQ(location->field("function_name"), name);
        EXPECT_EQ(fs::path(location->field("file_name")).filename(), "tick_probe.cpp");
        EXPECT_GT(std::stoul(location->field("line_number")), 0u);
      }
    } else if (type == "TYPE_SLICE_END") {
      if (open[track].empty()) ADD_FAILURE() << "an end without its begin on track " << track;
      else open[track].pop_back();
    } else {
      EXPECT_EQ(type, "TYPE_INSTANT");
      if (annotation == nullptr) {
        ADD_FAILURE() << "an instant event without its value";
        continue;
      }
      if (categories[sequence][event->field("category_iids")] == "perf") {
        ++summary.notes[name];
        EXPECT_EQ(annotation->field("name"), "dropped");
        continue;
      }
      ++summary.ticks[name];
      EXPECT_EQ(annotation->field("name"), "n");
      if (name == "step") { EXPECT_GE(std::stol(annotation->field("int_value")), 1); }
    }
  }
  for (const auto& [track, names_open] : open) EXPECT_TRUE(names_open.empty()) << "slices left open on " << track;
  for (const auto& [track, name] : thread_of_track) summary.threads.push_back(name);
  std::sort(summary.threads.begin(), summary.threads.end());
  return summary;
}

// Runs tick_probe in `mode` with `environment`.
void run_tick_probe(const std::string& environment, const std::string& mode = "") {
  const perf::testing::probe_result run = perf::testing::run_probe_program(PERF_TICK_PROBE, environment, mode);
  ASSERT_EQ(run.status, 0) << run.output;
}

// What tick_probe's default run logs, as read_trace() found it.
void expect_protoc_reads_default_run(const trace_summary& trace) {
  const std::string cut_label = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ<";
  EXPECT_EQ(trace.slices, (std::map<std::string, int>{{"outer", 1}, {"step", 3}, {"task", 12}}));
  EXPECT_EQ(trace.ticks, (std::map<std::string, int>{{"step", 3}, {"item", 12}, {cut_label, 1}}));
  EXPECT_TRUE(trace.notes.empty()) << "no ring overflowed";
  ASSERT_EQ(trace.threads.size(), 4u);
  EXPECT_EQ(std::vector<std::string>(trace.threads.begin() + 1, trace.threads.end()),
            (std::vector<std::string>{"worker-1", "worker-2", "worker-3"}));
}

// Streamed as the program runs (the default), or made at exit from the rings.
TEST_F(PerfettoTrace, ProtocReadsEveryThreadsNestedSlicesTicksAndNames) {
  for (const char* stream : {"on", "off"}) {
    SCOPED_TRACE(std::string("PERF_TRACE_STREAM=") + stream);
    const fs::path path = dir / (std::string(stream) + ".pftrace");
    run_tick_probe(std::string("PERF_REPORT=off PERF_TRACE_STREAM=") + stream + " PERF_TRACE=" + path.string());
    expect_protoc_reads_default_run(read_trace(path));
  }
}

// A ring too small for the run keeps the exits of scopes it lost the enters of: they
// begin at the first event kept, outermost first, and say so; no slice loses an end
// (the trace made at exit; a streamed one has every event, trace_stream_test.cpp).
TEST_F(PerfettoTrace, ScopesEnteredBeforeTheFirstEventKeptBeginThereAndSaySo) {
  const fs::path path = dir / "wrapped.pftrace";
  run_tick_probe("PERF_REPORT=off PERF_TRACE_STREAM=off PERF_RING_EVENTS=16 PERF_TRACE=" + path.string(), "wrap-spans");
  const trace_summary trace = read_trace(path);
  ASSERT_EQ(trace.threads.size(), 1u);
  const auto& begun = trace.begun.at(trace.threads.front());
  ASSERT_EQ(begun.size(), 3u);
  EXPECT_EQ(begun[0].first, "outer (cut)");
  EXPECT_EQ(begun[1].first, "middle (cut)");
  EXPECT_EQ(begun[2].first, "step");
  EXPECT_EQ(begun[0].second, 0u) << "the first event kept is the trace's origin";
  EXPECT_EQ(begun[1].second, 0u);
  EXPECT_EQ(trace.ticks, (std::map<std::string, int>{{"tick", 11}, {"step", 1}}))
      << "16 events: 11 ticks, middle's and outer's exits, then step's enter, tick and exit";
  EXPECT_EQ(trace.notes, (std::map<std::string, int>{{"perf: the timeline starts here: 91 older events of this "
                                                      "thread dropped before it (PERF_RING_EVENTS=128 keeps them)",
                                                      1}}));
}

// A function whose call was cut (its enter overwritten) and which is then called
// again: the second call's slice is whole, its name interned by the first (as a
// capture that starts inside a call meets it).
TEST_F(PerfettoTrace, AFunctionCutAndThenCalledAgainHasBothSlices) {
  using perf::runtime::event_copy;
  perf::runtime::tick_view view;
  view.sites = {{"?", "", 0, 0}, {"again", "again.cpp", 7, 1}};
  const auto event = [](uint64_t time, perf::detail::event_kind kind) {
    event_copy e;
    e.time = time;
    e.site = 1;
    e.kind = kind;
    return e;
  };
  using kind = perf::detail::event_kind;
  view.threads.push_back(
      {42, "cut-then-whole", {{event(10, kind::exit), event(20, kind::enter), event(30, kind::exit)}, 0}});
  const std::string trace = perf::runtime::format_perfetto_trace(view, 1.0, 4242);
  const fs::path path = dir / "again.pftrace";
  std::ofstream(path, std::ios::binary) << trace;
  const perf::testing::perfetto_trace read = perf::testing::read_perfetto_trace(path);
  EXPECT_EQ(read.slices, (std::map<std::string, uint64_t>{{"again", 2}}));
  EXPECT_EQ(read.unclosed, 0u);
  EXPECT_EQ(read.spans.at("cut-then-whole").at("again"),
            (std::vector<std::pair<uint64_t, uint64_t>>{{0, 0}, {10, 20}}));
}

}  // namespace
