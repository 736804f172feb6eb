// The tick log's writer thread, started when PERF_TRACE streams (a Perfetto trace,
// PERF_TRACE_STREAM not off) or PERF_CAPTURE has rules: it drains every thread's ring
// as it fills, into the trace, so that every event of the run reaches the file, not
// only the last PERF_RING_EVENTS of each thread. The capture rules' calls the measured
// threads judge themselves (slow_calls.hpp): the writer gives a FUNCTION>DURATION
// rule's site its limit once registered, a FUNCTION>pQ rule's the limit of its quantile
// (tail_threshold.hpp) every 10 ms once its function has enough timed calls, and takes
// the calls handed over (captures.hpp). With rules and no trace it reads no ring,
// sleeps until a call is handed over (or 10 ms pass: it then looks for new sites and
// finds the quantiles again), and only follows the rings' threads for a capture.
//
// The measured threads never wait for it and it allocates nothing of theirs: it
// reads behind each ring's `written` with the rings' own protocol (copy_events in
// rings.cpp): it reads events, then `written` again, and throws away those the
// owner may have overwritten meanwhile. Events a ring overwrote before the writer
// read them are lost: counted per thread, marked in the trace by a note ("perf: N
// events lost here ...", the count as `lost`) at the first event after them, where
// the scopes still open are ended (their ends may be among the lost events; an exit
// whose enter was lost is left out), and their total said on stderr at exit.
//
// A ring that passes to another thread (ticklog.cpp) is drained to its end first,
// by the tick log's exit hook (stream_exited_ring); the writer tells a ring's threads
// apart by ring_record::uses.
//
// Memory: the encoded bytes not yet written (written out from 1 MiB), one batch of
// 4096 events read (96 KiB, and 256 KiB for their labels), and per ring its thread's
// open scopes and at most perfetto_sequence::max_interned_labels interned labels; the
// sites' names. Where the trace streams, the rings are
// streamed_ring_events long unless PERF_RING_EVENTS says otherwise (ticklog_config.hpp).
//
// The file is write_output's (core/output_file.hpp): a regular file is written as
// `<path>.tmp.<pid>.<n>`, renamed over `path` when the program exits; a process that
// dies before leaves that file, a trace of what was written so far. A forked child
// does not stream: its trace is made at its exit from its ring.
#ifndef PERF_RUNTIME_TICKLOG_TRACE_STREAM_HPP
#define PERF_RUNTIME_TICKLOG_TRACE_STREAM_HPP

#include <string>

#include "ticklog/rings.hpp"

namespace perf::runtime {

// Whether this process streams its trace (its writer started for PERF_TRACE, and it
// is not a forked child).
bool trace_streaming();

// Drains the rest of `record`'s events into the stream, its thread (which has exited)
// named `name`, and ends its part: the ring may then be moved, emptied or given to
// another thread. For the tick log's exit hook. Takes the stream's lock.
void stream_exited_ring(const ring_record& record, const std::string& name);

// The events the writer has read from the rings so far: every event where the trace
// streams; none for capture rules alone, whose calls the measured threads judge
// themselves. Thread-safe.
uint64_t stream_events_read();

// At exit: stops the writer once it has drained every ring, the trace renamed into
// place and the captures taken written. Says on stderr how many events it lost, if any.
void finish_trace_stream();

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_TICKLOG_TRACE_STREAM_HPP
