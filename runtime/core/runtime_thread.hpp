// What a thread the runtime starts for itself (the live endpoint's server, the
// streamed trace's writer) does first.
#ifndef PERF_RUNTIME_CORE_RUNTIME_THREAD_HPP
#define PERF_RUNTIME_CORE_RUNTIME_THREAD_HPP

namespace perf::runtime {

// Blocks, on the calling thread, every signal meant for the program (a SIGTERM it
// waits for with sigwait, say) and the sampler's: only the faults the thread causes
// itself reach it.
void block_asynchronous_signals();

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_RUNTIME_THREAD_HPP
