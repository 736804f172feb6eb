// The probe's section of the report: what measuring cost the run, and how much of
// that went to the probe-dominated functions (marked `*` in the table).
#include <fmt/format.h>

#include "core/report_sections.hpp"
#include "core/startup.hpp"
#include "perf/report.hpp"
#include "report_format/text_format.hpp"

namespace perf::runtime {

using report_format::format_count;
using report_format::format_count_of;
using report_format::format_duration;

namespace {

std::string percent_of(double part, double whole) {
  return whole > 0 ? fmt::format("{:.1f}%", 100 * part / whole) : "-";
}

// `part` as a share of the process's CPU time `cpu_ns` (and that time when `shown`),
// or, where the probe's cost per call times the calls comes to more than all of it
// (a start-up figure too high for the run), no share at all.
std::string cpu_share(double part, double cpu_ns, bool shown) {
  const std::string cpu = shown ? " (" + format_duration(cpu_ns) + ")" : "";
  if (part > cpu_ns && cpu_ns > 0)
    return "more than the process's CPU time" + cpu + ": the cost per call is too high for this run";
  return percent_of(part, cpu_ns) + " of the process's CPU time" + cpu;
}

std::string probe_overhead_lines(const snapshot& s) {
  const probe_overhead& o = s.overhead;
  if (o.calls == 0) return {};
  // Calls adaptive timing only counted cost their own, smaller probe.
  const uint64_t timed = o.calls - o.untimed_calls;
  const std::string calls =
      o.untimed_calls == 0
          ? fmt::format("{} x {}", format_count_of(o.calls, "measured call"), format_duration(s.clock.probe_ns))
          : fmt::format("{} measured calls ({} timed x {}, {} counted only x {})", format_count(o.calls),
                        format_count(timed), format_duration(s.clock.probe_ns), format_count(o.untimed_calls),
                        format_duration(o.untimed_ns));
  std::string out =
      fmt::format("probe: {} = {}, {}\n", calls, format_duration(o.ns), cpu_share(o.ns, o.process_cpu_ns, true));
  if (o.dominated_functions != 0)
    out += fmt::format(
        "  * probe-dominated (median below {} probe costs, {}): {}, {}, {} of probe time: {} of "
        "all probe time, {}\n",
        probe_dominated_factor, format_duration(probe_dominated_factor * s.clock.probe_ns),
        format_count_of(o.dominated_functions, "function"), format_count_of(o.dominated_calls, "call"),
        format_duration(o.dominated_ns), percent_of(o.dominated_ns, o.ns),
        cpu_share(o.dominated_ns, o.process_cpu_ns, false));
  if (o.preempted_calls != 0)
    out += fmt::format(
        "  {} of sampled functions counted apart as preempted or interrupted ({}): counted as {}, "
        "not extrapolated to the untimed calls\n",
        format_count_of(o.preempted_calls, "timed call"), format_duration(o.preempted_ns),
        o.preempted_calls == 1 ? "it was" : "they were");
  return out;
}

std::string probe_overhead_json(const snapshot& s) {
  const probe_overhead& o = s.overhead;
  return fmt::format(
      "{{\"calls\": {}, \"untimed_calls\": {}, \"ns\": {:.1f}, \"dominated_functions\": {}, \"dominated_calls\": "
      "{}, \"dominated_ns\": {:.1f}, \"process_cpu_ns\": {:.1f}, \"preempted_calls\": {}, \"preempted_ns\": {:.1f}}}",
      o.calls, o.untimed_calls, o.ns, o.dominated_functions, o.dominated_calls, o.dominated_ns, o.process_cpu_ns,
      o.preempted_calls, o.preempted_ns);
}

PERF_RUNTIME_ON_START(register_probe_overhead_section) {
  add_report_section({50, "probe_overhead", probe_overhead_json, probe_overhead_lines});
}

}  // namespace
}  // namespace perf::runtime
