#include "ticklog/internal/tick_lines.hpp"

#include <cerrno>
#include <cstring>

#include "core/output_file.hpp"

namespace perf::runtime {
namespace {

// `value` in decimal at the end of `out` (20 bytes); returns where the digits start.
char* format_decimal(uint64_t value, char (&out)[21]) noexcept {
  char* digit = out + sizeof out;
  do {
    *--digit = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  return digit;
}

}  // namespace

void tick_line_writer::bytes(const char* data, size_t size) noexcept {
  while (size != 0) {
    if (used_ == sizeof buffer_) flush();
    const size_t n = size < sizeof buffer_ - used_ ? size : sizeof buffer_ - used_;
    std::memcpy(buffer_ + used_, data, n);
    used_ += n;
    data += n;
    size -= n;
  }
}

void tick_line_writer::text(const char* text) noexcept { bytes(text, std::strlen(text)); }

void tick_line_writer::count(uint64_t value, const char* noun) noexcept {
  number(value);
  text(" ");
  text(noun);
  if (value != 1) text("s");
}

void tick_line_writer::padded(const char* digits, size_t length, size_t width) noexcept {
  for (size_t i = length; i < width; ++i) bytes(" ", 1);
  bytes(digits, length);
}

void tick_line_writer::padded_number(uint64_t value, bool negative, size_t width) noexcept {
  char out[21];
  char* digits = format_decimal(value, out);
  if (negative) *--digits = '-';
  padded(digits, static_cast<size_t>(out + sizeof out - digits), width);
}

void tick_line_writer::number(uint64_t value) noexcept { padded_number(value, false, 0); }

void tick_line_writer::hex(uint64_t value) noexcept {
  char out[16];
  char* digit = out + sizeof out;
  do {
    *--digit = "0123456789abcdef"[value % 16];
    value /= 16;
  } while (value != 0);
  text("0x");
  bytes(digit, static_cast<size_t>(out + sizeof out - digit));
}

void tick_line_writer::column_headings() noexcept {
  text("#       time_ns     delta_ns   thread                    n  event\n");
}

void tick_line_writer::event(uint64_t time_ns, uint64_t delta_ns, long tid, const event_copy& e,
                             const char* site_name) noexcept {
  padded_number(time_ns, false, 15);
  padded_number(delta_ns, false, 13);
  padded_number(static_cast<uint64_t>(tid), false, 9);
  if (e.kind == detail::event_kind::tick) {
    const bool negative = e.value < 0;
    padded_number(negative ? 0 - static_cast<uint64_t>(e.value) : static_cast<uint64_t>(e.value), negative, 21);
    bytes("  ", 2);
    // One event, one line: control characters in a label become '?'.
    for (unsigned i = 0; i < e.label_length; ++i)
      bytes(static_cast<unsigned char>(e.label[i]) < 0x20 ? "?" : &e.label[i], 1);
  } else {
    padded("-", 1, 21);
    bytes(e.kind == detail::event_kind::enter ? "  > " : "  < ", 4);
    text(site_name != nullptr ? site_name : "?");
  }
  bytes("\n", 1);
}

bool tick_line_writer::flush() noexcept {
  if (used_ != 0 && error_ == 0 && !write_all(fd_, buffer_, used_)) error_ = errno != 0 ? errno : EIO;
  used_ = 0;
  return error_ == 0;
}

}  // namespace perf::runtime
