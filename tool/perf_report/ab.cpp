#include "ab.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "measured_process.hpp"
#include "rank_test.hpp"

namespace perf::perf_report {
namespace {

using location_key = std::tuple<std::string, std::string, unsigned>;
// Per function, per figure: its value in each process that called it.
using process_values = std::map<location_key, std::array<std::vector<double>, metric_count>>;

constexpr std::array<metric, 4> timing = {metric::mean, metric::p50, metric::p99, metric::self};
constexpr std::array<metric, 2> counted = {metric::calls, metric::alloc};

process_values values_by_function(const std::vector<report>& reports) {
  process_values values;
  for (const report& r : reports)
    for (const function_record& f : r.functions) {
      if (f.calls == 0) continue;
      auto& figures = values[{f.name, f.file, f.line}];
      for (size_t m = 0; m < metric_count; ++m)
        if (static_cast<metric>(m) != metric::share) figures[m].push_back(row_figure(f, static_cast<metric>(m)));
      // The quantiles within their bucket: a shift smaller than a bucket still moves them.
      // On a coarse clock (a VM's, of 10 ns steps) the calls sit on its steps: spread over a step.
      for (const auto& [m, q] : {std::pair{metric::p50, 0.5}, std::pair{metric::p99, 0.99}})
        figures[size_t(m)].back() =
            std::clamp(f.durations.interpolated_quantile_ns(q, r.resolution_ns), f.min_ns, f.max_ns);
    }
  return values;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

bool constant(const std::vector<double>& v) {
  return std::all_of(v.begin(), v.end(), [&](double x) { return x == v.front(); });
}

std::vector<double> logs_of(const std::vector<double>& v) {
  std::vector<double> out;
  for (double x : v) out.push_back(std::log(x));
  return out;
}

// The interval of the ratio new/base: Hodges-Lehmann's on the logarithms (a shift of
// log time is a ratio of times); none for figures that can be 0.
void ratio_interval(ab_figure& figure, const std::vector<double>& a, const std::vector<double>& b, double error) {
  figure.low = 0, figure.high = INFINITY, figure.detectable = INFINITY;
  const auto positive = [](const std::vector<double>& v) {
    return std::all_of(v.begin(), v.end(), [](double x) { return x > 0; });
  };
  if (!positive(a) || !positive(b)) return;
  const shift_interval shift = hodges_lehmann(logs_of(a), logs_of(b), error);
  figure.low = std::exp(shift.low), figure.high = std::exp(shift.high);
  if (std::isfinite(shift.low) && std::isfinite(shift.high))
    figure.detectable = std::exp((shift.high - shift.low) / 2) - 1;
}

// Whether more processes could change the verdict on `m`: against each rule on it, the
// interval lies wholly on one side of the rule's limit; with no rules, the figure is
// flagged or its interval lies within the floor.
bool decided(const ab_figure& f, metric m, bool flagged, const ab_options& options) {
  if (f.exact) return true;
  if (!f.judged) return true;
  if (options.diff.rules.empty()) {
    const double floor = options.diff.noise_floor;
    return flagged || (f.low > 1 - floor && f.high < 1 + floor);
  }
  for (const fail_rule& rule : options.diff.rules) {
    if (rule.figure != m) continue;
    const double limit = 1 + rule.fraction;
    if (!(f.low > limit || f.high < limit)) return false;
  }
  return true;
}

bool gated(metric m, const ab_options& options) {
  if (options.diff.rules.empty()) return std::find(timing.begin(), timing.end(), m) != timing.end();
  return std::any_of(options.diff.rules.begin(), options.diff.rules.end(),
                     [&](const fail_rule& rule) { return rule.figure == m; });
}

location_key key_of(const function_diff& d) { return {d.name, d.file, d.line}; }

}  // namespace

ab_side side_of_process(size_t i) { return i % 4 == 0 || i % 4 == 3 ? ab_side::base : ab_side::now; }

bool ab_options::is_look(size_t per_side) const {
  const size_t first = std::min(first_look, runs), step = std::max<size_t>(1, (runs - first) / 3);
  return per_side == runs || (per_side >= first && (per_side - first) % step == 0);
}

size_t ab_options::looks() const {
  size_t count = 0;
  for (size_t n = 1; n <= runs; ++n) count += is_look(n);
  return count;
}

ab_result judge_processes(std::vector<report> base, std::vector<report> now, const ab_options& options) {
  ab_result result;
  result.looks = options.looks();
  result.false_alarm = options.false_alarm;
  const size_t base_processes = base.size(), new_processes = now.size();
  const process_values base_values = values_by_function(base), new_values = values_by_function(now);
  diff_options diff = options.diff;
  diff.normalize.clear();
  result.diff = diff_reports(std::move(base), std::move(now), diff);
  std::vector<function_diff>& rows = result.diff.functions;

  std::map<location_key, ab_function> figures;
  // Every judged figure: its statistics, its row's change, the base and new values.
  std::vector<std::tuple<ab_figure*, change*, const std::vector<double>*, const std::vector<double>*>> judged;
  for (function_diff& d : rows) {
    d.changes[size_t(metric::share)].beyond_noise = false;  // the samples' share is not judged across processes
    ab_function& f = figures[key_of(d)];
    const auto a = base_values.find(key_of(d)), b = new_values.find(key_of(d));
    if (d.where != presence::both || a == base_values.end() || b == new_values.end()) continue;
    for (size_t m = 0; m < metric_count; ++m) {
      if (static_cast<metric>(m) == metric::share) continue;
      change& c = d.changes[m];
      c = {median(a->second[m]), median(b->second[m]), false};
    }
    d.too_few_calls = d[metric::calls].base < static_cast<double>(options.diff.min_calls) ||
                      d[metric::calls].now < static_cast<double>(options.diff.min_calls);
    d.impact_ns = (d[metric::mean].now - d[metric::mean].base) * d[metric::calls].now;
    for (metric m : counted) {
      const std::vector<double>&x = a->second[size_t(m)], &y = b->second[size_t(m)];
      ab_figure& figure = f.figures[size_t(m)];
      if (!constant(x) || !constant(y)) continue;
      figure.exact = true;
      change& c = d.changes[size_t(m)];
      c.beyond_noise = m == metric::calls ? c.base != c.now : std::abs(c.ratio() - 1) > 1e-9;
    }
    if (d.too_few_calls) continue;
    add_spread(result.between_process, d.name, a->second);
    add_spread(result.between_process, d.name, b->second);
    for (size_t m = 0; m < metric_count; ++m) {
      ab_figure& figure = f.figures[m];
      const metric which = static_cast<metric>(m);
      if (which == metric::share || figure.exact) continue;
      figure.judged = true;
      figure.p = rank_sum_p(a->second[m], b->second[m]);
      judged.emplace_back(&figure, &d.changes[m], &a->second[m], &b->second[m]);
    }
  }

  std::vector<double> p;
  for (const auto& j : judged) p.push_back(std::get<0>(j)->p);
  const std::vector<double> adjusted = holm_adjusted(p);
  result.tests = judged.size();
  const double level = options.false_alarm / static_cast<double>(result.looks);
  const double error = level / static_cast<double>(std::max<size_t>(result.tests, 1));
  result.interval_confidence = 1 - error;
  for (size_t i = 0; i < judged.size(); ++i) {
    auto [figure, c, a, b] = judged[i];
    figure->p_holm = adjusted[i];
    c->beyond_noise = figure->p_holm <= level && std::abs(c->ratio() - 1) > options.diff.noise_floor;
    ratio_interval(*figure, *a, *b, error);
  }

  result.all_decided = true;
  for (function_diff& d : rows) {
    ab_function& f = figures[key_of(d)];
    const bool totals = d[metric::mean].beyond_noise || d[metric::p50].beyond_noise || d[metric::p99].beyond_noise;
    d.through_callees = totals && f[metric::self].judged && !d[metric::self].beyond_noise &&
                        d[metric::self].base < 0.95 * d[metric::mean].base;
    for (size_t m = 0; m < metric_count; ++m) {
      ab_figure& figure = f.figures[m];
      figure.decided = decided(figure, static_cast<metric>(m), d.changes[m].beyond_noise, options);
      if (gated(static_cast<metric>(m), options) && !figure.decided) result.all_decided = false;
    }
  }
  const std::string judgment = fmt::format(
      "{} base and {} new processes; each figure by a rank-sum test across processes, Holm over {} "
      "figures, {:g}% false alarms; floor {:g}%",
      base_processes, new_processes, result.tests, options.false_alarm * 100, options.diff.noise_floor * 100);
  conclude(result.diff, options.diff.rules, judgment);
  for (const function_diff& d : rows) result.figures.push_back(figures[key_of(d)]);
  return result;
}

ab_result run_ab(const ab_options& options) {
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/perf-report-ab-XXXXXX";
  if (mkdtemp(dir.data()) == nullptr) throw input_error(fmt::format("{}: cannot create a directory", dir));
  struct removed_at_exit {
    std::string path;
    ~removed_at_exit() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  } cleanup{dir};

  std::array<std::vector<report>, 2> sides;
  std::vector<ab_side> order;
  const size_t max_bytes = options.max_input_bytes ? options.max_input_bytes : default_max_input_bytes;
  const auto start = std::chrono::steady_clock::now();
  const auto seconds_since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  double longest_pair = 0;
  ab_result result;
  bool judged = false;
  std::string stopped;
  for (size_t i = 0; i < 2 * options.runs; i += 2) {
    if (options.time_budget_s > 0 && i > 0 && seconds_since(start) + longest_pair > options.time_budget_s) {
      stopped = fmt::format("the time budget of {:g} s left no time for another pair", options.time_budget_s);
      break;
    }
    const auto pair_start = std::chrono::steady_clock::now();
    for (size_t j : {i, i + 1}) {
      const ab_side side = side_of_process(j);
      std::vector<report>& reports = sides[static_cast<size_t>(side)];
      const std::string path =
          fmt::format("{}/{}-{}.json", dir, side == ab_side::base ? "base" : "new", reports.size() + 1);
      run_measured(side == ab_side::base ? options.base_command : options.new_command, path,
                   side == ab_side::base ? "--base" : "--new");
      reports.push_back(read_report(path, max_bytes));
      order.push_back(side);
    }
    longest_pair = std::max(longest_pair, seconds_since(pair_start));
    const size_t per_side = i / 2 + 1;
    if (!options.is_look(per_side)) continue;
    result = judge_processes(sides[0], sides[1], options);
    judged = true;
    if (result.all_decided) {
      stopped = fmt::format("every gated figure decided after {} processes per side", per_side);
      break;
    }
  }
  if (!judged) result = judge_processes(sides[0], sides[1], options);
  if (stopped.empty()) stopped = fmt::format("{} processes per side (--runs)", options.runs);
  result.order = std::move(order);
  result.stopped = std::move(stopped);
  return result;
}

}  // namespace perf::perf_report
