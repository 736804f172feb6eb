#include "sampler/profile_formats.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include "report_format/protobuf_writer.hpp"

namespace perf::runtime {
namespace {

source_frame frame(const std::string& function) {
  source_frame f;
  f.function = function;
  return f;
}

// main -> run (with parse inlined into it) -> leaf, twice; main -> other once.
profile two_stacks() {
  profile p;
  p.hz = 100;
  p.locations.resize(4);
  p.locations[0].frames = {frame("leaf")};
  p.locations[1].frames = {frame("parse"), frame("run")};
  p.locations[2].frames = {frame("main")};
  p.locations[3].frames = {frame("other;x")};
  profile_stack first;
  first.tid = 1;
  first.count = 2;
  first.locations = {0, 1, 2};
  profile_stack second;
  second.tid = 2;
  second.count = 1;
  second.truncated = true;
  second.locations = {3, 2};
  p.stacks = {first, second};
  p.total = 3;
  return p;
}

TEST(FoldedStacks, OutermostFirstWithInlinedFramesAndCounts) {
  EXPECT_EQ(format_folded(two_stacks()), "[truncated];main;other:x 1\nmain;run;parse;leaf 2\n");
}

TEST(FoldedStacks, MergesThreadsWithTheSameStack) {
  profile p = two_stacks();
  p.stacks.push_back(p.stacks.front());
  p.stacks.back().tid = 3;
  EXPECT_EQ(format_folded(p), "[truncated];main;other:x 1\nmain;run;parse;leaf 4\n");
}

TEST(ProtobufWriter, WritesTheWireFormat) {
  protobuf_writer out;
  out.varint_field(1, 150);
  out.bytes_field(2, "ab");
  out.packed_field(3, std::vector<uint64_t>{1, 300});
  EXPECT_EQ(out.bytes(), std::string("\x08\x96\x01\x12\x02"
                                     "ab"
                                     "\x1a\x03\x01\xac\x02",
                                     12));
}

std::string gunzip(const std::string& data) {
  z_stream stream{};
  inflateInit2(&stream, 16 + 15);
  std::string out(1 << 16, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(inflate(&stream, Z_FINISH), Z_STREAM_END);
  out.resize(stream.total_out);
  inflateEnd(&stream);
  return out;
}

TEST(Pprof, GzipRoundTrips) {
  const std::string message = encode_pprof(two_stacks());
  EXPECT_EQ(gunzip(gzip(message)), message);
}

TEST(Pprof, StartsWithTheSampleTypesAndHoldsTheStrings) {
  const std::string message = encode_pprof(two_stacks());
  // sample_type {type: 1 ("samples"), unit: 2 ("count")}, then {3 ("cpu"), 4 ("nanoseconds")}.
  EXPECT_EQ(message.substr(0, 12), std::string("\x0a\x04\x08\x01\x10\x02\x0a\x04\x08\x03\x10\x04", 12));
  for (const char* s : {"samples", "count", "cpu", "nanoseconds", "thread", "leaf", "parse", "run", "main"})
    EXPECT_NE(message.find(s), std::string::npos) << s;
}

// A truncated stack (cut at the depth, or where the unwinder could not check a frame)
// ends in a location of its own named "[truncated]", as the folded stacks' root is; a
// profile without one has no such location.
TEST(Pprof, ATruncatedStackEndsInATruncatedLocation) {
  EXPECT_NE(encode_pprof(two_stacks()).find("[truncated]"), std::string::npos);
  profile whole = two_stacks();
  whole.stacks[1].truncated = false;
  EXPECT_EQ(encode_pprof(whole).find("[truncated]"), std::string::npos);
}

}  // namespace
}  // namespace perf::runtime
