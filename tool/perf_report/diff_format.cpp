#include "diff_format.hpp"

#include <fmt/format.h>

namespace perf::perf_report {
namespace {

constexpr std::array<metric, metric_count> shown = {metric::calls, metric::mean,  metric::p50,  metric::p99,
                                                    metric::self,  metric::alloc, metric::share};

// "x1.21*": the ratio, starred when beyond noise.
std::string ratio(const change& c) {
  if (c.base == 0 && c.now == 0) return "-";
  if (c.base == 0) return "new";
  return fmt::format("x{:.3f}{}", c.ratio(), c.beyond_noise ? "*" : "");
}

std::string status(const function_diff& d) {
  if (d.where == presence::added) return "added";
  if (d.where == presence::removed) return "removed";
  if (d.too_few_calls) return "few calls";
  return d.slower_or_faster() ? "changed" : "noise";
}

std::string cell(const function_diff& d, metric m) {
  const change& c = d[m];
  if (d.where == presence::added) return figure_text(m, c.now);
  if (d.where == presence::removed) return figure_text(m, c.base);
  return fmt::format("{} {}", figure_text(m, c.now), ratio(c));
}

// What follows the function's name: " (probe)" when it is probe-dominated on a side.
const char* probe_mark(const function_diff& d) { return d.probe_dominated() ? " (probe)" : ""; }

std::string legend(const diff_result& r) {
  return fmt::format(
      "{} base report(s), {} new report(s); ratios new/base, * beyond noise; functions with fewer than {} calls on a "
      "side are shown, not judged (--min-calls); (probe): probe-dominated, the probe costs a third or more of its "
      "time, a change may be the probe's (docs/perf-report.md)",
      r.base_runs, r.new_runs, r.min_calls);
}

}  // namespace

std::string format_diff_text(const diff_result& r) {
  std::string out = legend(r) + "\n";
  out += fmt::format("{:<40} {:>9} {:>10}", "function", "status", "impact");
  for (metric m : shown) out += fmt::format(" {:>20}", metric_name(m));
  out += '\n';
  for (const function_diff& d : r.functions) {
    const std::string full = d.name + probe_mark(d);
    const std::string name = full.size() > 40 ? full.substr(0, 19) + ".." + full.substr(full.size() - 19) : full;
    out += fmt::format("{:<40} {:>9} {:>10}", name, status(d), figure_text(metric::mean, d.impact_ns));
    for (metric m : shown) out += fmt::format(" {:>20}", cell(d, m));
    out += '\n';
  }
  for (const std::string& line : r.broken) out += "broken: " + line + '\n';
  return out + r.verdict + '\n';
}

std::string markdown_escaped(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|' || c == '*' || c == '_' || c == '`' || c == '<' || c == '>') out += '\\';
    out += c;
  }
  return out;
}

std::string format_diff_markdown(const diff_result& r) {
  std::string out = fmt::format("**perf-report:** {}\n\n", markdown_escaped(r.verdict));
  out += "| function | status | impact |";
  for (metric m : shown) out += fmt::format(" {} |", metric_name(m));
  out += "\n|---|---|---:|";
  for (size_t i = 0; i < shown.size(); ++i) out += "---:|";
  out += '\n';
  for (const function_diff& d : r.functions) {
    out +=
        fmt::format("| `{}`{} | {} | {} |", d.name, probe_mark(d), status(d), figure_text(metric::mean, d.impact_ns));
    for (metric m : shown) out += fmt::format(" {} |", markdown_escaped(cell(d, m)));
    out += '\n';
  }
  for (const std::string& line : r.broken) out += fmt::format("\n- broken: {}", markdown_escaped(line));
  return out + fmt::format("\n\n{}\n", markdown_escaped(legend(r)));
}

nlohmann::json diff_to_json(const diff_result& r) {
  nlohmann::json functions = nlohmann::json::array();
  for (const function_diff& d : r.functions) {
    nlohmann::json figures = nlohmann::json::object();
    for (metric m : shown) {
      const change& c = d[m];
      figures[metric_name(m)] = {{"base", c.base}, {"new", c.now}, {"beyond_noise", c.beyond_noise}};
      if (d.where == presence::both && c.base != 0) figures[metric_name(m)]["ratio"] = c.ratio();
    }
    functions.push_back({{"name", d.name},
                         {"file", d.file},
                         {"line", d.line},
                         {"status", status(d)},
                         {"probe_dominated", {{"base", d.base.probe_dominated}, {"new", d.now.probe_dominated}}},
                         {"impact_ns", d.impact_ns},
                         {"figures", std::move(figures)}});
  }
  return {{"base_reports", r.base_runs},
          {"new_reports", r.new_runs},
          {"verdict", r.verdict},
          {"broken", r.broken},
          {"functions", std::move(functions)}};
}

}  // namespace perf::perf_report
