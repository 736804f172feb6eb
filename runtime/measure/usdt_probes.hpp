// The USDT probes' side in the runtime (perf/detail/usdt.hpp; docs/timeline.md, "USDT probes").
#ifndef PERF_RUNTIME_MEASURE_USDT_PROBES_HPP
#define PERF_RUNTIME_MEASURE_USDT_PROBES_HPP

namespace perf::runtime {

// Whether a tracer is attached to perf:enter or perf:exit (either semaphore raised):
// adaptive timing then times every call (next_countdown). False in a runtime built
// without the probes. Any thread; async-signal-safe.
bool usdt_attached() noexcept;

// While one lives, the probes of the calling thread fire nothing: for the probe's
// calibration, which runs the real probe on a private block whose site ids are not
// the program's. Not nested.
class silenced_usdt_probes {
 public:
  silenced_usdt_probes() noexcept;
  ~silenced_usdt_probes();
  silenced_usdt_probes(const silenced_usdt_probes&) = delete;
  silenced_usdt_probes& operator=(const silenced_usdt_probes&) = delete;
};

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_MEASURE_USDT_PROBES_HPP
