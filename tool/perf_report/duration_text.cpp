#include "duration_text.hpp"

#include <cmath>

#include "report_format/text_format.hpp"

namespace perf::perf_report {

std::string signed_duration(double ns) {
  const std::string magnitude = report_format::format_duration(std::abs(ns));
  return ns < 0 && magnitude != report_format::format_duration(0) ? "-" + magnitude : magnitude;
}

}  // namespace perf::perf_report
