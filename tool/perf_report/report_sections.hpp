// The sections of a report besides functions[] that perf-report reads (clock, threads,
// samples, ticklog, allocations, probe_overhead), checked before anything uses them:
// each member it reads has the type and range the runtime writes.
#ifndef PERF_REPORT_TOOL_REPORT_SECTIONS_HPP
#define PERF_REPORT_TOOL_REPORT_SECTIONS_HPP

#include <string>

#include <nlohmann/json.hpp>

namespace perf::perf_report {

// Throws input_error ("FILE: samples.top[2] \"samples\" is not a count") for the
// first member that is not as the runtime writes it. An absent section or member is
// fine: older runtimes, or runs without sampling, leave them out.
void check_sections(const nlohmann::json& document, const std::string& file);

}  // namespace perf::perf_report

#endif  // PERF_REPORT_TOOL_REPORT_SECTIONS_HPP
