#include "merge.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <type_traits>
#include <unordered_map>

#include "function_location.hpp"
#include "record_columns.hpp"
#include "report_format/schema.hpp"
#include "report_format/share_interval.hpp"
#include "report_ranges.hpp"
#include "sample_lists.hpp"

namespace perf::perf_report {
namespace {

using nlohmann::json;

// Rows of `key` from every report, each with its report's pid added.
json concatenated_rows(const std::vector<report>& reports, const json::json_pointer& rows) {
  json out = json::array();
  for (const report& r : reports) {
    if (!r.document.contains(rows)) continue;
    for (json row : r.document.at(rows)) {
      row["pid"] = r.document.value("pid", uint64_t{0});
      out.push_back(std::move(row));
    }
  }
  return out;
}

// Each row's share_low and share_high, again for its merged share: from the merged
// interrupts (null: unknown, when a report did not say), else none.
void set_share_intervals(json& rows, const json& interrupts) {
  for (json& row : rows) {
    row.erase("share_low");
    row.erase("share_high");
    if (interrupts.is_null()) continue;
    const report_format::share_interval interval =
        report_format::wilson_interval(row.at("share").get<double>(), interrupts.get<double>());
    row["share_low"] = interval.low;
    row["share_high"] = interval.high;
  }
}

json merged_samples(const std::vector<report>& reports) {
  std::vector<const json*> sections;
  for (const report& r : reports)
    if (r.document.contains("samples")) sections.push_back(&r.document.at("samples"));
  if (sections.empty()) return nullptr;
  json out = *sections.front();
  uint64_t total = 0, dropped = 0;
  for (const json* s : sections) {
    total += s->value("total", uint64_t{0});
    dropped += s->value("dropped", uint64_t{0});
    if (s->value("hz", 0u) != out.value("hz", 0u)) out["hz"] = 0u;  // mixed rates: none applies
  }
  out["total"] = total;
  out["dropped"] = dropped;
  // Exact or absent: a report written before probe_samples existed leaves it unknown.
  out.erase("probe_samples");
  if (std::all_of(sections.begin(), sections.end(), [](const json* s) { return s->contains("probe_samples"); })) {
    uint64_t probe_samples = 0;
    for (const json* s : sections) probe_samples += s->at("probe_samples").get<uint64_t>();
    out["probe_samples"] = probe_samples;
  }
  auto lists = [&](const char* key) {
    std::vector<const json*> found;
    for (const json* s : sections)
      if (s->contains(key)) found.push_back(&s->at(key));
    return found;
  };
  // Exact or absent, as probe_samples; the source only where every report names the same.
  out.erase("interrupts");
  if (std::all_of(sections.begin(), sections.end(), [](const json* s) { return s->contains("interrupts"); })) {
    uint64_t interrupts = 0;
    for (const json* s : sections) interrupts += s->at("interrupts").get<uint64_t>();
    out["interrupts"] = interrupts;
  }
  if (std::any_of(sections.begin(), sections.end(),
                  [&](const json* s) { return s->value("source", json()) != out.value("source", json()); }))
    out.erase("source");
  // The threads no source could sample, summed; why: the first report's that says it.
  out.erase("unsampled_threads");
  out.erase("unsampled_why");
  for (const json* s : sections) {
    if (s->contains("unsampled_threads"))
      out["unsampled_threads"] =
          out.value("unsampled_threads", uint64_t{0}) + s->at("unsampled_threads").get<uint64_t>();
    if (s->contains("unsampled_why") && !out.contains("unsampled_why")) out["unsampled_why"] = s->at("unsampled_why");
  }
  merged_hottest top = merge_hottest(sections, "top", {"function", "file"}, total);
  merged_hottest lines = merge_hottest(sections, "lines", {"function", "file", "line"}, total);
  set_share_intervals(top.rows, out.value("interrupts", json()));
  set_share_intervals(lines.rows, out.value("interrupts", json()));
  out["top"] = std::move(top.rows);
  out["lines"] = std::move(lines.rows);
  out["unlisted_at_most"] = {{"top", top.unlisted_at_most}, {"lines", lines.unlisted_at_most}};
  // Every measured function with samples: exact.
  out["measured"] = summed_samples(lists("measured"), {"name"}, total);
  json threads = json::array();
  for (const report& r : reports) {
    if (!r.document.contains("samples") || !r.document["samples"].contains("threads")) continue;
    for (json t : r.document["samples"]["threads"]) {
      t["pid"] = r.document.value("pid", uint64_t{0});
      threads.push_back(std::move(t));
    }
  }
  out["threads"] = std::move(threads);
  if (std::any_of(sections.begin(), sections.end(), [](const json* s) { return s->contains("stacks"); }))
    out["stacks"] = summed_samples(lists("stacks"), {"stack"}, total);
  return out;
}

json merged_ticklog(const std::vector<report>& reports) {
  json out = nullptr;
  for (const report& r : reports) {
    if (!r.document.contains("ticklog")) continue;
    const json& t = r.document["ticklog"];
    if (out.is_null()) {
      out = t;
      continue;
    }
    out["enabled"] = out.value("enabled", false) || t.value("enabled", false);
    out["events"] = out.value("events", uint64_t{0}) + t.value("events", uint64_t{0});
    out["dropped"] = out.value("dropped", uint64_t{0}) + t.value("dropped", uint64_t{0});
    out["ring_events"] = std::max(out.value("ring_events", uint64_t{0}), t.value("ring_events", uint64_t{0}));
  }
  return out;
}

json merged_allocations(const std::vector<report>& reports) {
  json out = nullptr;
  for (const report& r : reports) {
    if (!r.document.contains("allocations")) continue;
    const std::string counting = r.document["allocations"].value("counting", "inactive");
    if (out.is_null()) out = {{"counting", counting}};
    else if (out["counting"] != counting) out["counting"] = "mixed";
  }
  if (!out.is_null()) out["threads"] = concatenated_rows(reports, json::json_pointer("/allocations/threads"));
  return out;
}

// Whether every report's section `section` has the member `member`: a sum over the
// reports is exact only then (a report written before the member existed leaves it out).
bool every_report_has(const std::vector<report>& reports, const char* section, const char* member) {
  return std::all_of(reports.begin(), reports.end(), [&](const report& r) {
    return r.document.contains(section) && r.document[section].is_object() && r.document[section].contains(member);
  });
}

// What measuring cost all the runs: `calls`, `ns` and `process_cpu_ns` add up, and
// `preempted_calls` and `preempted_ns` where every report has them; the
// probe-dominated figures are those of the merged functions (a function counts once,
// dominated or not as merged), `dominated_ns` at each one's call-weighted probe cost.
json merged_probe_overhead(const std::vector<report>& reports, const std::vector<function_record>& functions) {
  json out = nullptr;
  const bool preempted = every_report_has(reports, "probe_overhead", "preempted_calls");
  for (const report& r : reports) {
    if (!r.document.contains("probe_overhead")) continue;
    const json& o = r.document["probe_overhead"];
    if (out.is_null()) out = {{"calls", uint64_t{0}}, {"ns", 0.0}};
    out["calls"] = out["calls"].get<uint64_t>() + o.value("calls", uint64_t{0});
    if (o.contains("untimed_calls"))  // adaptive timing's (reports before it timed every call)
      out["untimed_calls"] = out.value("untimed_calls", uint64_t{0}) + o.value("untimed_calls", uint64_t{0});
    out["ns"] = out["ns"].get<double>() + o.value("ns", 0.0);
    out["process_cpu_ns"] = out.value("process_cpu_ns", 0.0) + o.value("process_cpu_ns", 0.0);
    if (preempted) {
      out["preempted_calls"] = out.value("preempted_calls", uint64_t{0}) + o.value("preempted_calls", uint64_t{0});
      out["preempted_ns"] = out.value("preempted_ns", 0.0) + o.value("preempted_ns", 0.0);
    }
  }
  if (out.is_null()) return out;
  uint64_t dominated_functions = 0, dominated_calls = 0;
  double dominated_ns = 0;
  for (const function_record& f : functions) {
    if (!f.probe_dominated) continue;
    ++dominated_functions;
    dominated_calls += f.calls;
    dominated_ns += static_cast<double>(f.timed_calls) * f.probe_ns;  // untimed calls' small cost left out
  }
  out["dominated_functions"] = dominated_functions;
  out["dominated_calls"] = dominated_calls;
  out["dominated_ns"] = std::round(dominated_ns * 10) / 10;
  return out;
}

// Whether every report's clock counts at the first one's rate, as far as the runtime's
// calibration can tell (three runs of one machine calibrate 2.44540414 and 2.44540416 GHz):
// then the merge keeps that clock, and adds the histograms bucket by bucket.
bool same_rate(const std::vector<report>& reports) {
  const double ghz = reports.front().ghz();
  return std::all_of(reports.begin(), reports.end(),
                     [&](const report& r) { return report_format::same_clock_rate(r.ghz(), ghz); });
}

// The probe's checks while the runs ran, where every report has them: the counts add
// up, `highest_ns` is the highest any found (null otherwise).
json merged_probe_checks(const std::vector<report>& reports) {
  if (!every_report_has(reports, "probe_checks", "checks")) return nullptr;
  json out = {{"checks", uint64_t{0}}, {"above", uint64_t{0}}, {"highest_ns", 0.0}};
  for (const report& r : reports) {
    const json& c = r.document.at("probe_checks");
    out["checks"] = out["checks"].get<uint64_t>() + c.value("checks", uint64_t{0});
    out["above"] = out["above"].get<uint64_t>() + c.value("above", uint64_t{0});
    out["highest_ns"] = std::max(out["highest_ns"].get<double>(), c.value("highest_ns", 0.0));
  }
  return out;
}

json merged_clock(const std::vector<report>& reports) {
  json clock = reports.front().document.at("clock");
  for (const report& r : reports) {
    const json& c = r.document.at("clock");
    if (c.value("source", "") != clock.value("source", "")) clock["source"] = "merged";
    clock["resolution_ns"] = std::max(clock.value("resolution_ns", 0.0), c.value("resolution_ns", 0.0));
    if (c.contains("probe_ns")) clock["probe_ns"] = std::max(clock.value("probe_ns", 0.0), c.value("probe_ns", 0.0));
  }
  if (!same_rate(reports)) {
    clock["source"] = "merged";
    clock["ghz"] = 1.0;
    clock["frequency"] = "merged";
  }
  return clock;
}

using report_format::merge_rule;

constexpr auto smaller = [](auto x, auto y) { return std::min(x, y); };
constexpr auto larger = [](auto x, auto y) { return std::max(x, y); };

// a's member `m` becomes op(a's, b's): for the members that are numbers.
template <class T, class Op>
void combine(function_record& a, const function_record& b, T function_record::*m, Op op) {
  if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) a.*m = static_cast<T>(op(a.*m, b.*m));
}
template <class Op>
void combine(function_record&, const function_record&, std::monostate, Op) {}

}  // namespace

void merge_function(function_record& a, const function_record& b) {
  if (a.calls == 0) {  // one copy: the first report of the function (with calls), at a's rate
    const double ghz = a.durations.ghz;
    a = b;
    if (!report_format::same_clock_rate(b.durations.ghz, ghz)) a.durations = b.durations.rebinned(ghz);
    a.durations.ghz = ghz;
    return;
  }
  if (b.calls == 0) return;
  // The moments are the timed calls' (Chan et al.'s merge). The mean of every call is
  // the calls-weighted mean of the two, its standard error that of a sum of two
  // independent estimates: sqrt((C_a se_a)^2 + (C_b se_b)^2) / (C_a + C_b).
  const double t_a = static_cast<double>(a.timed_calls), t_b = static_cast<double>(b.timed_calls), t = t_a + t_b;
  const double delta = b.mean_ns - a.mean_ns;
  a.mean_ns += delta * t_b / t;
  a.m2_ns2 += b.m2_ns2 + delta * delta * t_a * t_b / t;
  const double n_a = static_cast<double>(a.calls), n_b = static_cast<double>(b.calls), n = n_a + n_b;
  const double error = std::hypot(n_a * a.call_mean_standard_error_ns(), n_b * b.call_mean_standard_error_ns()) / n;
  a.call_mean_ns = (n_a * a.call_mean_ns + n_b * b.call_mean_ns) / n;
  a.call_mean_low_ns = a.call_mean_ns - report_format::mean_interval_z * error;
  a.call_mean_high_ns = a.call_mean_ns + report_format::mean_interval_z * error;
  // Every other column by its rule (report_format::function_columns).
  for (const report_format::function_column& c : report_format::function_columns) {
    const record_member& member = record_column_of(c.field).member;
    switch (c.merge) {
      case merge_rule::sum: std::visit([&](auto m) { combine(a, b, m, std::plus<>()); }, member); break;
      case merge_rule::min: std::visit([&](auto m) { combine(a, b, m, smaller); }, member); break;
      case merge_rule::max: std::visit([&](auto m) { combine(a, b, m, larger); }, member); break;
      case merge_rule::histogram: a.durations.merge(b.durations); break;
      case merge_rule::moments:   // above: before the counts are added
      case merge_rule::estimate:  // above, as the moments
      case merge_rule::verdict:   // below, on the merged row
      case merge_rule::key:       // equal: how the rows were matched
      case merge_rule::derived:   // computed from the merged row
      case merge_rule::unset: break;
    }
  }
  a.probe_ns = (a.probe_ns * n_a + b.probe_ns * n_b) / n;
  a.probe_inside_ns = (a.probe_inside_ns * n_a + b.probe_inside_ns * n_b) / n;
  a.probe_dominated = a.probe_dominates();
}

std::vector<function_record> merge_functions(const std::vector<report>& reports) {
  const double ghz = same_rate(reports) ? reports.front().ghz() : 1.0;
  size_t rows = 0;
  for (const report& r : reports) rows += r.functions.size();
  std::vector<function_record> merged;
  merged.reserve(rows);
  // Keys view the reports' strings, which outlive the index.
  std::unordered_map<function_location, size_t, function_location_hash> index;
  index.reserve(rows);
  for (const report& r : reports) {
    for (const function_record& f : r.functions) {
      const auto [entry, fresh] = index.try_emplace(function_location::of(f), merged.size());
      if (fresh) merged.emplace_back().durations.ghz = ghz;
      merge_function(merged[entry->second], f);
    }
  }
  return merged;
}

report merge_reports(const std::vector<report>& reports) {
  report out;
  out.path = "the merged report";
  out.document = {{"schema_version", report_format::schema_version}, {"pid", uint64_t{0}}};
  json pids = json::array();
  for (const report& r : reports) pids.push_back(r.document.value("pid", uint64_t{0}));
  out.document["merged_pids"] = std::move(pids);
  out.document["clock"] = merged_clock(reports);
  out.document["threads"] = concatenated_rows(reports, json::json_pointer("/threads"));
  for (const auto& [key, section] :
       {std::pair{"ticklog", merged_ticklog(reports)}, std::pair{"allocations", merged_allocations(reports)},
        std::pair{"samples", merged_samples(reports)}, std::pair{"probe_checks", merged_probe_checks(reports)}})
    if (!section.is_null()) out.document[key] = section;

  out.functions = merge_functions(reports);
  // Equal totals by location, so that the order does not depend on the reports' order.
  std::sort(out.functions.begin(), out.functions.end(), [](const function_record& a, const function_record& b) {
    if (a.total_ns != b.total_ns) return a.total_ns > b.total_ns;
    return function_location::of(a) < function_location::of(b);
  });
  if (json overhead = merged_probe_overhead(reports, out.functions); !overhead.is_null())
    out.document["probe_overhead"] = std::move(overhead);
  // Sums of figures each in range can leave it (calls above 2^53): refused, not written.
  check_report_ranges(out);
  return out;
}

}  // namespace perf::perf_report
