// The plain tick-log format (PERF_TICKLOG, perf::dump_ticks, the crash dump):
//
//   # perf-instrument tick log, pid 4242: ...
//   #       time_ns     delta_ns   thread                    n  event
//                 0            0     4242                    -  > parse
//               310          310     4242                   42  got header
//
// time_ns counts from the first event shown, delta_ns from the same thread's
// previous one; `n` is a tick's value; the event is a tick's label, or "> name" and
// "< name" for entering and leaving a measured scope.
#ifndef PERF_RUNTIME_TICKLOG_INTERNAL_TICK_LINES_HPP
#define PERF_RUNTIME_TICKLOG_INTERNAL_TICK_LINES_HPP

#include <cstddef>
#include <cstdint>

#include "ticklog/rings.hpp"

namespace perf::runtime {

// Writes the format to a file descriptor through a fixed buffer: no allocation,
// no lock, so the crash dump can use it in a signal handler.
class tick_line_writer {
 public:
  explicit tick_line_writer(int fd) noexcept : fd_(fd) {}
  tick_line_writer(const tick_line_writer&) = delete;
  tick_line_writer& operator=(const tick_line_writer&) = delete;

  void text(const char* text) noexcept;
  void number(uint64_t value) noexcept;
  // `value` in lowercase hexadecimal after "0x", as printf's %p writes an address.
  void hex(uint64_t value) noexcept;
  // `value` and `noun`, plural unless `value` is 1: "1 thread", "3 threads".
  void count(uint64_t value, const char* noun) noexcept;
  void column_headings() noexcept;
  // One event; `site_name` names the site of an enter or exit event (may be null).
  void event(uint64_t time_ns, uint64_t delta_ns, long tid, const event_copy& e, const char* site_name) noexcept;
  // Writes what is buffered; false if any write failed. After a failed write
  // nothing more is written, so what did go out has no gap.
  bool flush() noexcept;
  // The errno of the write that failed, 0 while none has.
  int error() const noexcept { return error_; }

 private:
  void bytes(const char* data, size_t size) noexcept;
  void padded(const char* digits, size_t length, size_t width) noexcept;
  void padded_number(uint64_t value, bool negative, size_t width) noexcept;

  int fd_;
  int error_ = 0;
  size_t used_ = 0;
  char buffer_[8192];
};

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_TICKLOG_INTERNAL_TICK_LINES_HPP
