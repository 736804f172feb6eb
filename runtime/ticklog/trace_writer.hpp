// The tick log as Chrome Trace Event JSON written a thread at a time, for a reader
// that sends it as it comes (the live endpoint's /trace): each ring is read when its
// turn comes, so what is held at once is one ring's events and their JSON. The tick
// log's face for its trace; the whole-log trace of PERF_TRACE is internal/trace.hpp.
#ifndef PERF_RUNTIME_TICKLOG_TRACE_WRITER_HPP
#define PERF_RUNTIME_TICKLOG_TRACE_WRITER_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/sites.hpp"
#include "ticklog/ticklog.hpp"

namespace perf::runtime {

// The events logged since `start` (a clock value) that each thread's ring still
// holds when its turn comes; times count from `start`. One thread at a time; it
// takes the thread list's lock for each ring it reads.
class trace_writer {
 public:
  explicit trace_writer(uint64_t start);

  // Writes the trace's next bytes, at most `room` of them, to `out`; returns how
  // many, 0 once the whole trace has been written.
  size_t write(char* out, size_t room);

 private:
  // The next thread's events with any in the window, else the trace's end; false
  // after the end.
  bool next_piece();

  uint64_t start_;
  std::vector<tick_source> threads_;
  size_t next_ = 0;
  std::vector<site_info> sites_;  // index = site id; those registered so far
  std::string pending_;
  size_t written_ = 0;
  bool ended_ = false;
};

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_TICKLOG_TRACE_WRITER_HPP
