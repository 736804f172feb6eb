// Just enough of the protocol buffers wire format to write a fixed schema: varints,
// packed varints and length-delimited fields, appended to a string. Its interface for
// a message's fields (varint_field, bytes_field, message_field, append_fields, size) is also
// fixed_protobuf_writer's, so that one encoder serves both.
#ifndef PERF_RUNTIME_REPORT_FORMAT_PROTOBUF_WRITER_HPP
#define PERF_RUNTIME_REPORT_FORMAT_PROTOBUF_WRITER_HPP

#include <stdint.h>

#include <string>
#include <string_view>
#include <vector>

namespace perf::runtime {

class protobuf_writer {
 public:
  // A varint field; zero is written too (a proto3 reader reads it as the default).
  void varint_field(unsigned field, uint64_t value) {
    key(field, 0);
    varint(value);
  }
  // A length-delimited field: bytes, a string or an embedded message.
  void bytes_field(unsigned field, std::string_view bytes) {
    key(field, 2);
    varint(bytes.size());
    out_ += bytes;
  }
  // An embedded message, written by `message`.
  void message_field(unsigned field, const protobuf_writer& message) { bytes_field(field, message.out_); }
  // The fields `fields` wrote, after this message's own (a message's fields concatenate).
  void append_fields(const protobuf_writer& fields) { out_ += fields.out_; }
  // A repeated varint field in packed form (omitted when empty).
  template <typename T>
  void packed_field(unsigned field, const std::vector<T>& values) {
    if (values.empty()) return;
    protobuf_writer packed;
    for (T value : values) packed.varint(static_cast<uint64_t>(value));
    bytes_field(field, packed.out_);
  }
  const std::string& bytes() const { return out_; }
  size_t size() const { return out_.size(); }

  // The most bytes a varint takes.
  static constexpr size_t max_varint_size = 10;
  // Writes `value` as a varint at `at` (room for max_varint_size bytes); returns its end.
  static char* put_varint(char* at, uint64_t value) {
    for (; value >= 0x80; value >>= 7) *at++ = static_cast<char>((value & 0x7f) | 0x80);
    *at++ = static_cast<char>(value);
    return at;
  }
  // Appends `value` to `out` as a varint, for a writer that lays out a message itself.
  static void append_varint(std::string& out, uint64_t value) {
    char bytes[max_varint_size];
    out.append(bytes, static_cast<size_t>(put_varint(bytes, value) - bytes));
  }
  // The bytes append_varint() takes for `value`.
  static size_t varint_size(uint64_t value) {
    size_t size = 1;
    for (; value >= 0x80; value >>= 7) ++size;
    return size;
  }

 private:
  void key(unsigned field, unsigned wire_type) { varint(uint64_t{field} << 3 | wire_type); }
  void varint(uint64_t value) { append_varint(out_, value); }
  std::string out_;
};

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_REPORT_FORMAT_PROTOBUF_WRITER_HPP
