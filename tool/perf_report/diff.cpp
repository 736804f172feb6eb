#include "diff.hpp"

#include <algorithm>
#include <cmath>
#include <regex>
#include <unordered_map>

#include <fmt/format.h>

#include "duration_text.hpp"
#include "function_location.hpp"
#include "merge.hpp"
#include "noise.hpp"
#include "perf/detail/histogram_index.hpp"
#include "report_format/schema.hpp"
#include "report_format/text_format.hpp"
#include "sample_lists.hpp"

namespace perf::perf_report {
namespace {

using location_index = std::unordered_map<function_location, const function_record*, function_location_hash>;

constexpr std::array<metric, 4> timing_metrics = {metric::mean, metric::p50, metric::p99, metric::self};

// One side: its reports, their rows merged (moved out of the report when it is the
// only one: nothing to merge), each report's rows by location for the between-run
// tests, and the share of the side's samples each measured function took.
struct side {
  std::vector<report> reports;
  std::vector<function_record> functions;
  std::vector<location_index> runs;  // only when both sides have several reports
  uint64_t samples_total = 0;
  std::unordered_map<std::string, double> shares;

  side(std::vector<report> given, bool index_runs) : reports(std::move(given)) {
    // samples.measured summed by name over the reports, as merge_reports sums them.
    std::vector<const nlohmann::json*> measured;
    for (const report& r : reports) {
      const auto samples = r.document.find("samples");
      if (samples == r.document.end()) continue;
      samples_total += samples->value("total", uint64_t{0});
      if (samples->contains("measured")) measured.push_back(&samples->at("measured"));
    }
    for (const nlohmann::json& m : summed_samples(measured, {"name"}, samples_total))
      shares[m.value("name", "")] = m.value("share", 0.0);
    if (reports.size() == 1) {
      functions = std::move(reports.front().functions);
      return;
    }
    functions = merge_functions(reports);
    if (!index_runs) return;
    for (const report& r : reports) {
      location_index& rows = runs.emplace_back();
      rows.reserve(r.functions.size());
      for (const function_record& f : r.functions) rows[function_location::of(f)] = &f;
    }
  }

  // `figure` of the function in each run that has it.
  std::vector<double> per_run(const function_location& where, metric figure) const {
    std::vector<double> values;
    for (const location_index& rows : runs) {
      const auto found = rows.find(where);
      if (found != rows.end() && found->second->calls > 0) values.push_back(row_figure(*found->second, figure));
    }
    return values;
  }

  double figure(const function_record& f, metric m) const {
    if (m != metric::share) return row_figure(f, m);
    const auto found = shares.find(f.name);
    return found == shares.end() ? 0 : found->second;
  }
};

bool past_floor(const change& c, double floor) { return std::abs(c.ratio() - 1) > floor; }

// The width in ns of the histogram bucket holding `ns`.
double bucket_width_ns(const histogram& h, double ns) {
  return static_cast<double>(detail::bucket_width(h.bucket_of_ns(ns))) / h.ghz;
}

// Whether a timing figure moved by more than the reports can resolve: one histogram
// bucket (a quantile is a bucket's midpoint, so values a hair apart can land a bucket
// apart) and one step of the clock, plus the spread of the probe-cost estimates
// compensation subtracted (an artefact of the estimates, not of the code). A step is
// taken as 1.5 resolutions: a quantile of calls that straddle a step moves by one
// whole step (10.015 ns on a clock whose stated resolution is 10.0) however small the
// change that tipped it, and two steps are past any rounding of the stated figure.
bool past_resolution(const change& c, const function_diff& d, const diff_result& result) {
  constexpr double step_in_resolutions = 1.5;
  const double larger = std::max(c.base, c.now);
  const double bucket = std::max(bucket_width_ns(d.base.durations, larger), bucket_width_ns(d.now.durations, larger));
  return std::abs(c.now - c.base) >
         std::max(bucket, step_in_resolutions * result.resolution_ns) + result.compensation_spread_ns;
}

// Whether the timing figure differs beyond what the runs' own spread explains.
bool significant(const side& base, const side& now, const function_diff& d, metric m, double floor) {
  if (!base.runs.empty()) {
    const function_location where{d.name, d.file, d.line};
    return means_differ(sample_moments::of(base.per_run(where, m)), sample_moments::of(now.per_run(where, m)));
  }
  auto call_moments = [](const function_record& f) {
    const double n = static_cast<double>(f.timed_calls);
    return sample_moments{n, f.mean_ns, n < 2 ? 0 : f.m2_ns2 / (n - 1)};
  };
  // An estimated mean (adaptive timing) carries its sampling error: a change inside
  // the two intervals combined (sqrt(h_base^2 + h_now^2) for half-widths h) is none.
  // Self time per call is estimated from the same timed calls, with the same error.
  if ((m == metric::mean || m == metric::self) && (d.base.estimated() || d.now.estimated())) {
    const double error = std::hypot(d.base.call_mean_standard_error_ns(), d.now.call_mean_standard_error_ns());
    const change& c = d[m];
    if (std::abs(c.now - c.base) <= report_format::mean_interval_z * error) return false;
  }
  switch (m) {
    case metric::p50: return quantiles_differ(d.base.durations, d.now.durations, 0.5);
    case metric::p99: return quantiles_differ(d.base.durations, d.now.durations, 0.99);
    // A mean moved by a few preempted calls while the median stayed is the tail
    // moving, which one run cannot judge (as p99): the median must move the same way,
    // past the floor. Self time has no distribution in a report: it moves with the mean.
    default: {
      const double median_ratio = d.now.quantile_ns(0.5) / d.base.quantile_ns(0.5);
      return means_differ(call_moments(d.base), call_moments(d.now)) &&
             quantiles_differ(d.base.durations, d.now.durations, 0.5) && std::abs(median_ratio - 1) > floor &&
             (d.now.call_mean_ns > d.base.call_mean_ns) == (median_ratio > 1);
    }
  }
}

// With one report per side: whether the function's fastest calls moved in the direction
// of `c` too, beyond their quantile's interval and past the noise floor (on a fine clock
// the fast mode's own quantile moves a little with its weight). On a busy host a process's
// calls fall into a fast and a slow mode (the vCPU alone or sharing its core, ~2x apart)
// whose weights differ between processes, which moves the median and the mean but not the
// fastest calls; a change of the code moves every call (docs/perf-report.md, "The fastest
// calls must move too"). `yardstick` is how far the normalizing function's own fastest
// calls moved (1 without one): its median scaled every figure, and in a process slowed in
// part the median moves where the fastest calls do not, so they are judged against its.
bool fastest_calls_moved(const change& c, const function_diff& d, double floor, double yardstick) {
  histogram now = d.now.durations;
  now.ghz *= yardstick;
  const change fastest{d.base.quantile_ns(fastest_calls_quantile),
                       d.now.quantile_ns(fastest_calls_quantile) / yardstick};
  return quantiles_differ(d.base.durations, now, fastest_calls_quantile) && past_floor(fastest, floor) &&
         (fastest.now > fastest.base) == (c.now > c.base);
}

// The normalizing function's fastest calls, now over base (1 where there is none).
double fastest_yardstick(const std::vector<function_diff>& rows, const std::string& normalize) {
  for (const function_diff& d : rows)
    if (d.where == presence::both && d.name == normalize)
      return d.now.quantile_ns(fastest_calls_quantile) / d.base.quantile_ns(fastest_calls_quantile);
  return 1;
}

void judge(const side& base, const side& now, function_diff& d, const diff_options& options, const diff_result& result,
           double yardstick) {
  for (size_t i = 0; i < metric_count; ++i) {
    const metric m = static_cast<metric>(i);
    d.changes[i] = {base.figure(d.base, m), now.figure(d.now, m), false};
  }
  if (d.where != presence::both) return;
  d.too_few_calls = d.base.calls < options.min_calls || d.now.calls < options.min_calls;
  auto& c = d.changes;
  c[size_t(metric::calls)].beyond_noise = d.base.calls != d.now.calls;
  c[size_t(metric::alloc)].beyond_noise = past_floor(c[size_t(metric::alloc)], 1e-9);
  change& share = c[size_t(metric::share)];
  share.beyond_noise =
      past_floor(share, options.noise_floor) &&
      proportions_differ(
          static_cast<uint64_t>(std::llround(share.base * static_cast<double>(base.samples_total))), base.samples_total,
          static_cast<uint64_t>(std::llround(share.now * static_cast<double>(now.samples_total))), now.samples_total);
  if (d.too_few_calls) return;
  const bool several_runs = !base.runs.empty();
  for (metric m : timing_metrics) {
    // The tail moves from run to run with what else the machine does (preemption,
    // frequency): one run per side cannot tell that from a change (docs/perf-report.md).
    if (m == metric::p99 && !several_runs) continue;
    change& t = c[size_t(m)];
    t.beyond_noise = past_floor(t, options.noise_floor) && past_resolution(t, d, result) &&
                     significant(base, now, d, m, options.noise_floor) &&
                     (several_runs || (past_floor(t, options.between_process.of(d.name, m)) &&
                                       fastest_calls_moved(t, d, options.noise_floor, yardstick)));
  }
}

std::string describe(const function_diff& d) {
  if (d.where == presence::added) return fmt::format("{} added", d.name);
  if (d.where == presence::removed) return fmt::format("{} removed", d.name);
  const std::string probe = std::string(d.probe_dominated() ? " (probe-dominated)" : "") +
                            (d.through_callees ? " (through its callees: self time unchanged)" : "");
  const change& mean = d[metric::mean];
  for (metric m : timing_metrics)
    if (d[m].beyond_noise)
      return fmt::format("{} {} {} {:+.1f}%{}", d.name, d[m].ratio() > 1 ? "slower" : "faster", metric_name(m),
                         (d[m].ratio() - 1) * 100, probe);
  return fmt::format("{} mean {:+.1f}%{}", d.name, (mean.ratio() - 1) * 100, probe);
}

// Every time of `r` multiplied by `factor`.
void scale_times(report& r, double factor) {
  for (function_record& f : r.functions) {
    f.total_ns *= factor, f.self_ns *= factor, f.mean_ns *= factor, f.min_ns *= factor, f.max_ns *= factor;
    f.call_mean_ns *= factor, f.call_mean_low_ns *= factor, f.call_mean_high_ns *= factor;
    f.m2_ns2 *= factor * factor;
    f.probe_ns *= factor, f.probe_inside_ns *= factor;
    f.durations.ghz /= factor;
  }
  r.document["clock"]["ghz"] = r.document["clock"]["ghz"].get<double>() / factor;
  r.resolution_ns *= factor, r.compensated_ns *= factor;
}

double reference_median(const report& r, const std::string& name) {
  for (const function_record& f : r.functions) {
    if (f.name != name || f.calls == 0) continue;
    if (!(f.quantile_ns(0.5) > 0))
      throw input_error(fmt::format("{}: {}'s median is 0, no yardstick to normalize by", r.path, name));
    return f.quantile_ns(0.5);
  }
  throw input_error(fmt::format("{}: no calls of {}, the function to normalize by", r.path, name));
}

// Each report's times scaled so that `name`'s median is `reference` (see diff_options).
void normalize(std::vector<report>& reports, const std::string& name, double reference) {
  for (report& r : reports) scale_times(r, reference / reference_median(r, name));
}

// The rows of both sides matched by location, each merged record moved into its row.
std::vector<function_diff> matched(side& base, side& now) {
  std::vector<function_diff> rows;
  rows.reserve(base.functions.size() + now.functions.size());  // never moves: the index views its strings
  std::unordered_map<function_location, size_t, function_location_hash> row_of;
  row_of.reserve(rows.capacity());
  auto add = [&](function_record& f, presence where) -> function_diff& {
    function_diff& d = rows.emplace_back();
    d.name = f.name, d.file = f.file, d.line = f.line, d.where = where;
    row_of.emplace(function_location{d.name, d.file, d.line}, rows.size() - 1);
    return d;
  };
  // A location twice in one side can only be a sole report's (a merge has each once):
  // merged as merge_reports would.
  for (function_record& f : base.functions) {
    const auto found = row_of.find(function_location::of(f));
    if (found != row_of.end()) merge_function(rows[found->second].base, f);
    else add(f, presence::removed).base = std::move(f);
  }
  for (function_record& f : now.functions) {
    const auto found = row_of.find(function_location::of(f));
    if (found == row_of.end()) {
      add(f, presence::added).now = std::move(f);
      continue;
    }
    function_diff& d = rows[found->second];
    if (d.where == presence::removed) d.now = std::move(f), d.where = presence::both;
    else merge_function(d.now, f);
  }
  return rows;
}

// "noise floor 5%, and more than a histogram bucket and the clock's resolution
// (0.40 ns), plus 0.52 ns (the runs' probe-cost estimates apart)".
std::string noise_floor_text(const diff_result& r, const diff_options& options) {
  std::string text = fmt::format("noise floor {:g}%, and more than a histogram bucket and the clock's resolution ({})",
                                 options.noise_floor * 100, signed_duration(r.resolution_ns));
  if (r.compensation_spread_ns > 0)
    text += fmt::format(", plus {} (the runs' probe-cost estimates apart)", signed_duration(r.compensation_spread_ns));
  if (r.base_runs < 2 || r.new_runs < 2) {
    const process_floor& f = options.between_process;
    auto percent = [&](metric m) { return f.figures[static_cast<size_t>(m)] * 100; };
    text += fmt::format(
        "; one report per side cannot see the noise between processes: no timing change within the between-process "
        "floor is flagged ({}: p50 {:.3g}%, mean {:.3g}%, self {:.3g}%{}), nor one that its fastest calls (p{:g}) did "
        "not make too",
        f.source, percent(metric::p50), percent(metric::mean), percent(metric::self),
        f.functions.empty() ? "" : ", the most of any function", fastest_calls_quantile * 100);
  }
  return text;
}

}  // namespace

double row_figure(const function_record& f, metric m) {
  const double calls = static_cast<double>(std::max<uint64_t>(f.calls, 1));
  switch (m) {
    case metric::calls: return static_cast<double>(f.calls);
    case metric::mean: return f.call_mean_ns;
    case metric::p50: return f.quantile_ns(0.5);
    case metric::p99: return f.quantile_ns(0.99);
    case metric::self: return f.self_ns / calls;
    case metric::alloc: return static_cast<double>(f.alloc_total_count) / calls;
    case metric::share: return 0;  // from the samples section
  }
  return 0;
}

const char* metric_name(metric m) {
  static constexpr const char* names[] = {"calls", "mean", "p50", "p99", "self", "alloc", "share"};
  return names[static_cast<size_t>(m)];
}

std::string figure_text(metric m, double value) {
  if (m == metric::calls) return fmt::format("{:.0f}", value);
  if (m == metric::alloc) return fmt::format("{:.2f}", value);
  if (m == metric::share) return fmt::format("{:.1f}%", value * 100);
  return signed_duration(value);
}

bool function_diff::slower_or_faster() const {
  return std::any_of(timing_metrics.begin(), timing_metrics.end(), [&](metric m) { return (*this)[m].beyond_noise; });
}

fail_rule parse_fail_rule(const std::string& text) {
  static const std::regex shape(
      R"(\s*(calls|mean|p50|p99|self|alloc|share)\s*([<>])\s*([+-]?[0-9]+(\.[0-9]*)?)\s*%\s*)");
  std::smatch match;
  if (!std::regex_match(text, match, shape))
    throw input_error(
        fmt::format("--fail-if '{}': expected FIGURE>+N% or FIGURE<-N%, FIGURE one of calls, mean, "
                    "p50, p99, self, alloc, share",
                    text));
  fail_rule rule;
  rule.text = text;
  for (size_t i = 0; i < metric_count; ++i)
    if (match[1] == metric_name(static_cast<metric>(i))) rule.figure = static_cast<metric>(i);
  rule.greater = match[2] == ">";
  rule.fraction = std::stod(match[3]) / 100;
  return rule;
}

bool rule_broken_by(const fail_rule& rule, const function_diff& d) {
  if (d.where != presence::both || d.too_few_calls) return false;
  const change& c = d[rule.figure];
  if (!c.beyond_noise) return false;
  return rule.greater ? c.ratio() - 1 > rule.fraction : c.ratio() - 1 < rule.fraction;
}

std::string broken_line(const fail_rule& rule, const function_diff& d) {
  const change& c = d[rule.figure];
  return fmt::format("{}: {} {} {:+.1f}% ({} -> {})", rule.text, d.name, metric_name(rule.figure),
                     (c.ratio() - 1) * 100, figure_text(rule.figure, c.base), figure_text(rule.figure, c.now));
}

void conclude(diff_result& result, const std::vector<fail_rule>& rules, const std::string& judgment) {
  std::vector<function_diff>& rows = result.functions;
  // By impact; equal impacts by location, so that the order depends on nothing else.
  std::sort(rows.begin(), rows.end(), [](const function_diff& a, const function_diff& b) {
    const double impact_a = std::abs(a.impact_ns), impact_b = std::abs(b.impact_ns);
    if (impact_a != impact_b) return impact_a > impact_b;
    return function_location{a.name, a.file, a.line} < function_location{b.name, b.file, b.line};
  });
  size_t changed = 0, compared = 0;
  for (const function_diff& d : rows) compared += d.where == presence::both, changed += d.slower_or_faster();
  result.broken.clear();
  for (const fail_rule& rule : rules)
    for (const function_diff& d : rows)
      if (rule_broken_by(rule, d)) result.broken.push_back(broken_line(rule, d));
  std::vector<std::string> moved;
  for (const function_diff& d : rows)
    if (d.slower_or_faster() || d.where != presence::both) moved.push_back(describe(d));
  std::string summary = changed == 0 ? fmt::format("no change beyond noise ({} compared; {})",
                                                   report_format::format_count_of(compared, "function"), judgment)
                                     : fmt::format("{} of {} changed beyond noise ({})", changed,
                                                   report_format::format_count_of(compared, "function"), judgment);
  const size_t shown = std::min<size_t>(moved.size(), 3);
  if (shown > 0)
    summary += fmt::format(": {}{}", fmt::join(moved.begin(), moved.begin() + static_cast<long>(shown), "; "),
                           moved.size() > shown ? fmt::format("; {} more", moved.size() - shown) : "");
  result.verdict =
      result.broken.empty()
          ? summary
          : fmt::format("FAIL: {}{}; {}", result.broken.front(),
                        result.broken.size() > 1 ? fmt::format(" and {} more", result.broken.size() - 1) : "", summary);
}

diff_result diff_reports(std::vector<report> base_reports, std::vector<report> new_reports,
                         const diff_options& options) {
  if (!options.normalize.empty()) {
    const double reference = reference_median(base_reports.front(), options.normalize);
    normalize(base_reports, options.normalize, reference);
    normalize(new_reports, options.normalize, reference);
  }
  diff_result result;
  result.base_runs = base_reports.size();
  result.new_runs = new_reports.size();
  result.min_calls = options.min_calls;
  double least_compensated = INFINITY, most_compensated = 0;
  for (const std::vector<report>* reports : {&base_reports, &new_reports})
    for (const report& r : *reports) {
      result.resolution_ns = std::max(result.resolution_ns, r.resolution_ns);
      least_compensated = std::min(least_compensated, r.compensated_ns);
      most_compensated = std::max(most_compensated, r.compensated_ns);
    }
  result.compensation_spread_ns = most_compensated - least_compensated;
  const bool several_runs = base_reports.size() >= 2 && new_reports.size() >= 2;
  side base(std::move(base_reports), several_runs), now(std::move(new_reports), several_runs);
  std::vector<function_diff> rows = matched(base, now);
  const double yardstick = fastest_yardstick(rows, options.normalize);
  for (function_diff& d : rows) {
    judge(base, now, d, options, result, yardstick);
    d.impact_ns = d.where == presence::added ? d.now.total_ns
                  : d.where == presence::removed
                      ? -d.base.total_ns
                      : (d.now.call_mean_ns - d.base.call_mean_ns) * static_cast<double>(d.now.calls);
  }
  result.functions = std::move(rows);
  conclude(result, options.rules, noise_floor_text(result, options));
  return result;
}

}  // namespace perf::perf_report
