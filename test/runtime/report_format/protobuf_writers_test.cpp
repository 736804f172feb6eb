// The two protocol buffers writers: protobuf_writer, into a string, and
// fixed_protobuf_writer, into a fixed array for a signal handler, write the same bytes
// for the same fields, so that one encoder (ticklog's perfetto_packets.hpp) serves both.
#include <gtest/gtest.h>

#include <string>

#include "report_format/fixed_protobuf_writer.hpp"
#include "report_format/protobuf_writer.hpp"

namespace perf::runtime {
namespace {

template <class Writer>
std::string a_message_of_every_kind_of_field() {
  Writer inner;
  inner.varint_field(1, 300);
  Writer more;
  more.bytes_field(7, "more");
  Writer message;
  message.varint_field(1, 150);
  message.bytes_field(2, "ab");
  message.message_field(3, inner);
  message.append_fields(more);
  return std::string(message.bytes().data(), message.bytes().size());
}

// The fixed writer's bytes as a string, as protobuf_writer::bytes() gives its own.
template <size_t Capacity>
struct fixed_writer : fixed_protobuf_writer<Capacity> {
  std::string_view bytes() const { return {this->data(), this->size()}; }
};

TEST(ProtobufWriters, BothWriteTheSameBytesForTheSameFields) {
  // 1: 150; 2: "ab"; 3: {1: 300}; 7: "more" (appended).
  const std::string expected(
      "\x08\x96\x01\x12\x02"
      "ab"
      "\x1a\x03\x08\xac\x02\x3a\x04"
      "more",
      18);
  EXPECT_EQ(a_message_of_every_kind_of_field<protobuf_writer>(), expected);
  EXPECT_EQ(a_message_of_every_kind_of_field<fixed_writer<64>>(), expected);
}

TEST(FixedProtobufWriter, AFieldThatDoesNotFitIsLeftOutAndTheFieldsBeforeItStayWhole) {
  fixed_protobuf_writer<64> message;
  message.varint_field(1, 150);
  EXPECT_FALSE(message.full());
  message.bytes_field(2, std::string(60, 'x'));  // 2 + 60 bytes: beyond the 61 left
  EXPECT_TRUE(message.full());
  message.varint_field(3, 1);  // would fit, but the message is full: left out too
  EXPECT_EQ(std::string(message.data(), message.size()), std::string("\x08\x96\x01", 3));
}

TEST(FixedProtobufWriter, AFieldThatFillsItExactlyFits) {
  fixed_protobuf_writer<6> message;
  message.bytes_field(1, "abcd");
  EXPECT_FALSE(message.full());
  EXPECT_EQ(std::string(message.data(), message.size()), std::string("\x0a\x04"
                                                                     "abcd",
                                                                     6));
}

}  // namespace
}  // namespace perf::runtime
