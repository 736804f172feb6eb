#include "ab_format.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "diff_format.hpp"

namespace perf::perf_report {
namespace {

constexpr std::array<metric, 6> shown = {metric::calls, metric::mean, metric::p50,
                                         metric::p99,   metric::self, metric::alloc};

size_t count(const ab_result& r, ab_side side) {
  return static_cast<size_t>(std::count(r.order.begin(), r.order.end(), side));
}

std::string status(const function_diff& d) {
  if (d.where == presence::added) return "added";
  if (d.where == presence::removed) return "removed";
  if (d.too_few_calls) return "few calls";
  if (d.through_callees) return "callees";
  return d.slower_or_faster() ? "changed" : "noise";
}

// "x1.052*": the ratio, starred beyond noise; "=" after an exact comparison.
std::string ratio(const change& c, const ab_figure& f) {
  if (c.base == 0 && c.now == 0) return "-";
  if (c.base == 0) return "new";
  return fmt::format("x{:.3f}{}{}", c.ratio(), c.beyond_noise ? "*" : "", f.exact ? "=" : "");
}

std::string interval(const ab_figure& f) {
  if (!f.judged) return "";
  if (!(f.low > 0) || !std::isfinite(f.high)) return "none";
  return fmt::format("x{:.3f}..x{:.3f}", f.low, f.high);
}

std::string detectable(const ab_figure& f) {
  if (!f.judged) return "";
  return std::isfinite(f.detectable) ? fmt::format("±{:.1f}%", f.detectable * 100) : "none";
}

std::string header(const ab_result& r) {
  return fmt::format(
      "perf-report ab: {} base and {} new processes, run alternately (base, new, new, base, ...); stopped: {}",
      count(r, ab_side::base), count(r, ab_side::now), r.stopped);
}

std::string legend(const ab_result& r) {
  return fmt::format(
      "each process's figures are one sample; ratio: the medians over processes, new/base; * beyond noise "
      "(rank-sum test, Holm over {} figures, {:g}% false alarms in all, and past the floor); = compared exactly "
      "(the same in every process of a side); interval: Hodges-Lehmann's of the ratio, {:.3f}% for every "
      "figure and look together; detectable: the smallest change that interval tells from none; "
      "callees: its totals changed, its self time did not; functions with fewer than {} calls per process "
      "are shown, not judged",
      r.tests, r.false_alarm * 100, r.interval_confidence * 100, r.diff.min_calls);
}

// The rows of one function: (figure, base, new, ratio, interval, detectable) per figure.
std::vector<std::array<std::string, 6>> figure_rows(const function_diff& d, const ab_figure* figures) {
  std::vector<std::array<std::string, 6>> rows;
  for (metric m : shown) {
    const change& c = d[m];
    const ab_figure& f = figures[static_cast<size_t>(m)];
    if (d.where == presence::added) {
      if (m == metric::mean) rows.push_back({metric_name(m), "", figure_text(m, c.now), "", "", ""});
    } else if (d.where == presence::removed) {
      if (m == metric::mean) rows.push_back({metric_name(m), figure_text(m, c.base), "", "", "", ""});
    } else {
      rows.push_back(
          {metric_name(m), figure_text(m, c.base), figure_text(m, c.now), ratio(c, f), interval(f), detectable(f)});
    }
  }
  return rows;
}

std::string xml_escaped(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

nlohmann::json finite_or_null(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }

}  // namespace

std::string format_ab_text(const ab_result& r) {
  std::string out = header(r) + "\n" + legend(r) + "\n";
  out += fmt::format("{:<40} {:>9} {:>6} {:>10} {:>10} {:>9} {:>15} {:>10}\n", "function", "status", "figure", "base",
                     "new", "ratio", "interval", "detectable");
  for (size_t i = 0; i < r.diff.functions.size(); ++i) {
    const function_diff& d = r.diff.functions[i];
    const std::string name =
        d.name.size() > 40 ? d.name.substr(0, 19) + ".." + d.name.substr(d.name.size() - 19) : d.name;
    bool first = true;
    for (const auto& row : figure_rows(d, r.figures[i].figures.data())) {
      out += fmt::format("{:<40} {:>9} {:>6} {:>10} {:>10} {:>9} {:>15} {:>10}", first ? name : "",
                         first ? status(d) : "", row[0], row[1], row[2], row[3], row[4], row[5]);
      while (!out.empty() && out.back() == ' ') out.pop_back();
      out += '\n';
      first = false;
    }
  }
  for (const std::string& line : r.diff.broken) out += "broken: " + line + '\n';
  return out + r.diff.verdict + '\n';
}

std::string format_ab_markdown(const ab_result& r) {
  std::string out =
      fmt::format("**perf-report ab:** {}\n\n{}\n\n", markdown_escaped(r.diff.verdict), markdown_escaped(header(r)));
  out += "| function | status | figure | base | new | ratio | interval | detectable |\n";
  out += "|---|---|---|---:|---:|---:|---:|---:|\n";
  for (size_t i = 0; i < r.diff.functions.size(); ++i) {
    const function_diff& d = r.diff.functions[i];
    bool first = true;
    for (const auto& row : figure_rows(d, r.figures[i].figures.data())) {
      out += first ? fmt::format("| `{}` | {} |", d.name, status(d)) : std::string("| | |");
      for (const std::string& cell : row) out += fmt::format(" {} |", markdown_escaped(cell));
      out += '\n';
      first = false;
    }
  }
  for (const std::string& line : r.diff.broken) out += fmt::format("\n- broken: {}", markdown_escaped(line));
  return out + fmt::format("\n\n{}\n", markdown_escaped(legend(r)));
}

nlohmann::json ab_to_json(const ab_result& r) {
  nlohmann::json functions = nlohmann::json::array();
  for (size_t i = 0; i < r.diff.functions.size(); ++i) {
    const function_diff& d = r.diff.functions[i];
    nlohmann::json figures = nlohmann::json::object();
    for (metric m : shown) {
      const change& c = d[m];
      const ab_figure& f = r.figures[i][m];
      nlohmann::json figure = {
          {"base", c.base}, {"new", c.now}, {"beyond_noise", c.beyond_noise}, {"exact", f.exact}, {"judged", f.judged}};
      if (d.where == presence::both && c.base != 0) figure["ratio"] = c.ratio();
      if (f.judged) {
        figure["p"] = f.p, figure["p_holm"] = f.p_holm, figure["decided"] = f.decided;
        figure["low"] = finite_or_null(f.low > 0 ? f.low : NAN), figure["high"] = finite_or_null(f.high);
        figure["detectable"] = finite_or_null(f.detectable);
      }
      figures[metric_name(m)] = std::move(figure);
    }
    functions.push_back({{"name", d.name},
                         {"file", d.file},
                         {"line", d.line},
                         {"status", status(d)},
                         {"through_callees", d.through_callees},
                         {"impact_ns", d.impact_ns},
                         {"figures", std::move(figures)}});
  }
  nlohmann::json order = nlohmann::json::array();
  for (ab_side s : r.order) order.push_back(s == ab_side::base ? "base" : "new");
  return {{"base_processes", count(r, ab_side::base)},
          {"new_processes", count(r, ab_side::now)},
          {"order", std::move(order)},
          {"stopped", r.stopped},
          {"all_decided", r.all_decided},
          {"false_alarm", r.false_alarm},
          {"looks", r.looks},
          {"tests", r.tests},
          {"interval_confidence", r.interval_confidence},
          {"verdict", r.diff.verdict},
          {"broken", r.diff.broken},
          {"functions", std::move(functions)}};
}

std::string format_ab_junit(const ab_result& r, const std::vector<fail_rule>& rules) {
  std::string cases;
  size_t tests = 0, failures = 0;
  for (size_t i = 0; i < r.diff.functions.size(); ++i) {
    const function_diff& d = r.diff.functions[i];
    if (d.where != presence::both || d.too_few_calls) continue;
    ++tests;
    std::vector<std::string> broken;
    for (const fail_rule& rule : rules)
      if (rule_broken_by(rule, d)) broken.push_back(broken_line(rule, d));
    std::string figures;
    for (const auto& row : figure_rows(d, r.figures[i].figures.data())) {
      figures += fmt::format("{} {} -> {} {} {} {}", row[0], row[1], row[2], row[3], row[4], row[5]);
      while (figures.back() == ' ') figures.pop_back();
      figures += '\n';
    }
    cases += fmt::format("  <testcase classname=\"perf-report.ab\" name=\"{}\">\n", xml_escaped(d.name));
    if (!broken.empty()) {
      ++failures;
      cases += fmt::format("   <failure message=\"{}\" type=\"performance\">{}</failure>\n",
                           xml_escaped(fmt::format("{}", fmt::join(broken, "; "))), xml_escaped(figures));
    }
    cases += fmt::format("   <system-out>{} ({}:{})\n{}</system-out>\n  </testcase>\n", status(d), xml_escaped(d.file),
                         d.line, broken.empty() ? xml_escaped(figures) : "");
  }
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<testsuites name=\"perf-report ab\" tests=\"{0}\" failures=\"{1}\">\n"
      " <testsuite name=\"perf-report ab\" tests=\"{0}\" failures=\"{1}\">\n"
      "  <properties><property name=\"verdict\" value=\"{2}\"/></properties>\n"
      "{3} </testsuite>\n</testsuites>\n",
      tests, failures, xml_escaped(r.diff.verdict), cases);
}

}  // namespace perf::perf_report
