// A snapshot in the Prometheus text exposition format 0.0.4 or in OpenMetrics 1.0:
// what /metrics serves (docs/live.md lists the metrics).
#ifndef PERF_RUNTIME_EXPORT_METRICS_HPP
#define PERF_RUNTIME_EXPORT_METRICS_HPP

#include <string>
#include <string_view>

#include "perf/report.hpp"

namespace perf::runtime {

enum class metrics_format { prometheus, openmetrics };

// OpenMetrics when `accept` (a request's Accept header) names it, else Prometheus.
metrics_format metrics_format_for(std::string_view accept);

// The Content-Type of `format`.
const char* metrics_content_type(metrics_format format);

std::string format_metrics(const snapshot& s, metrics_format format);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_EXPORT_METRICS_HPP
