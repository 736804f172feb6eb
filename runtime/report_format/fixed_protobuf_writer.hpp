// protobuf_writer's fields laid out in a fixed array: no allocation, no lock, no
// system call, so that a signal handler can encode (the crash's Perfetto trace).
// Async-signal-safe.
#ifndef PERF_RUNTIME_REPORT_FORMAT_FIXED_PROTOBUF_WRITER_HPP
#define PERF_RUNTIME_REPORT_FORMAT_FIXED_PROTOBUF_WRITER_HPP

#include <stddef.h>
#include <stdint.h>

#include <string_view>

#include "report_format/protobuf_writer.hpp"

namespace perf::runtime {

// A message of at most `Capacity` bytes. A field that would not fit is left out and
// the message marked full(); the fields before it stay whole.
template <size_t Capacity>
class fixed_protobuf_writer {
 public:
  void varint_field(unsigned field, uint64_t value) noexcept {
    char bytes[2 * protobuf_writer::max_varint_size];
    char* end = protobuf_writer::put_varint(bytes, uint64_t{field} << 3);
    end = protobuf_writer::put_varint(end, value);
    append(bytes, static_cast<size_t>(end - bytes), nullptr, 0);
  }
  // A length-delimited field: bytes, a string or an embedded message.
  void bytes_field(unsigned field, std::string_view bytes) noexcept {
    char head[2 * protobuf_writer::max_varint_size];
    char* end = protobuf_writer::put_varint(head, uint64_t{field} << 3 | 2);
    end = protobuf_writer::put_varint(end, bytes.size());
    append(head, static_cast<size_t>(end - head), bytes.data(), bytes.size());
  }
  template <size_t N>
  void message_field(unsigned field, const fixed_protobuf_writer<N>& message) noexcept {
    bytes_field(field, {message.data(), message.size()});
  }
  template <size_t N>
  void append_fields(const fixed_protobuf_writer<N>& fields) noexcept {
    append(fields.data(), fields.size(), nullptr, 0);
  }
  const char* data() const noexcept { return bytes_; }
  size_t size() const noexcept { return size_; }
  bool full() const noexcept { return full_; }

 private:
  void append(const char* head, size_t head_size, const char* data, size_t size) noexcept {
    const size_t room = Capacity - size_;
    if (full_ || head_size > room || size > room - head_size) {
      full_ = true;
      return;
    }
    __builtin_memcpy(bytes_ + size_, head, head_size);
    if (size != 0) __builtin_memcpy(bytes_ + size_ + head_size, data, size);
    size_ += head_size + size;
  }

  char bytes_[Capacity];
  size_t size_ = 0;
  bool full_ = false;
};

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_REPORT_FORMAT_FIXED_PROTOBUF_WRITER_HPP
