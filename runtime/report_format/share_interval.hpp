// How sure a sampled share is: the interval both the runtime (each share it reports)
// and perf-report (each share of merged reports) give in `share_low`/`share_high`.
#ifndef PERF_RUNTIME_REPORT_FORMAT_SHARE_INTERVAL_HPP
#define PERF_RUNTIME_REPORT_FORMAT_SHARE_INTERVAL_HPP

namespace perf::report_format {

struct share_interval {
  double low = 0;
  double high = 0;
};

// Wilson's 95% interval of a proportion `share` observed in `observations`
// independent trials (for samples, the interrupts behind them): right near 0 and 1
// and for few trials, where the normal approximation's is not. {0, 0} without
// observations.
share_interval wilson_interval(double share, double observations);

}  // namespace perf::report_format

#endif  // PERF_RUNTIME_REPORT_FORMAT_SHARE_INTERVAL_HPP
