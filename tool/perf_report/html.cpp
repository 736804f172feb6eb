#include "html.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>
#include <unordered_map>

#include <fmt/format.h>

#include "page_histogram.hpp"
#include "report_format/html_page.hpp"

namespace perf::perf_report {
namespace {

using nlohmann::json;

double tenth(double v) { return std::round(v * 10) / 10; }

// The rows, by `weight` (largest first), whose distributions' texts (`bytes`) fit in
// `budget` together: true for those, in the rows' own order.
std::vector<bool> embedded_distributions(const std::vector<double>& weight, const std::vector<size_t>& bytes,
                                         size_t budget) {
  std::vector<size_t> order(weight.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return weight[a] > weight[b]; });
  std::vector<bool> embedded(weight.size(), false);
  size_t used = 0;
  for (size_t i : order) {
    if (used + bytes[i] > budget) break;
    used += bytes[i];
    embedded[i] = true;
  }
  return embedded;
}

// `v` to 6 significant digits: the page shows 3 of a ratio.
// (strtod, not stod: a subnormal value reads back, where stod would throw.)
double significant_digits(double v) {
  return v == 0 || !std::isfinite(v) ? v : std::strtod(fmt::format("{:.6g}", v).c_str(), nullptr);
}

// The pages name files by index: a program's functions share a few hundred files.
class file_table {
 public:
  size_t index_of(const std::string& file) {
    const auto [found, fresh] = index_.try_emplace(file, files_.size());
    if (fresh) files_.push_back(file);
    return found->second;
  }
  json take() { return std::move(files_); }

 private:
  json files_ = json::array();
  std::unordered_map<std::string, size_t> index_;
};

// The length of a page_histogram's counts text, which the budget counts.
size_t text_size(const json& histogram) {
  return histogram.size() < 3 ? 0 : histogram[2].get_ref<const std::string&>().size();
}

// Folded stacks as a tree of {"n": name, "v": samples, "c": [children]}, at most
// max_flame_depth frames deep: the rest of a deeper stack is left out (the tree is
// built and written recursively, and a folded file is input like any other).
constexpr size_t max_flame_depth = 1000;

json stack_tree(const std::string& folded) {
  struct node {
    uint64_t value = 0;
    std::map<std::string, node> children;
  };
  node root;
  std::istringstream lines(folded);
  std::string line;
  while (std::getline(lines, line)) {
    const size_t space = line.rfind(' ');
    if (space == std::string::npos) continue;
    uint64_t count = 0;
    try {
      count = std::stoull(line.substr(space + 1));
    } catch (const std::exception&) { continue; }
    node* at = &root;
    at->value += count;
    std::istringstream frames(line.substr(0, space));
    std::string frame;
    for (size_t depth = 0; depth < max_flame_depth && std::getline(frames, frame, ';'); ++depth) {
      at = &at->children[frame];
      at->value += count;
    }
  }
  const auto to_json = [](const auto& self, const std::string& name, const node& n) -> json {
    json children = json::array();
    for (const auto& [child_name, child] : n.children) children.push_back(self(self, child_name, child));
    return {{"n", name}, {"v", n.value}, {"c", std::move(children)}};
  };
  return root.value == 0 ? json() : to_json(to_json, "all", root);
}

}  // namespace

json report_page_data(const report& r, const std::string& folded, size_t distribution_bytes) {
  json columns = {{"name", json::array()},  {"file", json::array()},  {"line", json::array()}, {"calls", json::array()},
                  {"total", json::array()}, {"self", json::array()},  {"mean", json::array()}, {"sd", json::array()},
                  {"min", json::array()},   {"max", json::array()},   {"p50", json::array()},  {"p90", json::array()},
                  {"p99", json::array()},   {"ac", json::array()},    {"ab", json::array()},   {"share", json::array()},
                  {"probe", json::array()}, {"timed", json::array()}, {"h", json::array()}};
  const std::unordered_map<std::string, double> shares = r.sample_shares();
  file_table files;
  std::vector<json> histograms;
  std::vector<double> totals;
  std::vector<size_t> sizes;
  for (const function_record& f : r.functions) {
    const auto share = shares.find(f.name);
    const double calls = static_cast<double>(std::max<uint64_t>(f.calls, 1));
    columns["name"].push_back(f.name);
    columns["file"].push_back(files.index_of(f.file));
    columns["line"].push_back(f.line);
    columns["calls"].push_back(f.calls);
    columns["total"].push_back(tenth(f.total_ns));
    columns["self"].push_back(tenth(f.self_ns));
    columns["mean"].push_back(tenth(f.call_mean_ns));
    columns["sd"].push_back(tenth(f.stddev_ns()));
    columns["min"].push_back(tenth(f.min_ns));
    columns["max"].push_back(tenth(f.max_ns));
    columns["p50"].push_back(tenth(f.quantile_ns(0.5)));
    columns["p90"].push_back(tenth(f.quantile_ns(0.9)));
    columns["p99"].push_back(tenth(f.quantile_ns(0.99)));
    columns["ac"].push_back(std::round(static_cast<double>(f.alloc_total_count) / calls * 100) / 100);
    columns["ab"].push_back(tenth(static_cast<double>(f.alloc_total_bytes) / calls));
    columns["share"].push_back(share == shares.end() ? 0.0 : std::round(share->second * 10000) / 10000);
    columns["probe"].push_back(f.probe_dominated ? 1 : 0);
    columns["timed"].push_back(f.timed_calls);
    histograms.push_back(page_histogram(f.durations));
    totals.push_back(f.total_ns);
    sizes.push_back(text_size(histograms.back()));
  }
  const std::vector<bool> embedded = embedded_distributions(totals, sizes, distribution_bytes);
  for (size_t i = 0; i < histograms.size(); ++i)
    columns["h"].push_back(embedded[i] ? std::move(histograms[i]) : json());
  json data = {{"kind", "report"},
               {"title", r.path},
               {"files", files.take()},
               {"functions", std::move(columns)},
               {"distributions", std::count(embedded.begin(), embedded.end(), true)}};
  for (const char* key : {"pid", "clock", "threads", "allocations", "ticklog", "merged_pids"})
    if (r.document.contains(key)) data[key] = r.document.at(key);
  if (r.document.contains("samples")) {
    json samples = r.document.at("samples");
    samples.erase("threads");
    samples.erase("lines");
    data["samples"] = std::move(samples);
  }
  if (json tree = stack_tree(folded); !tree.is_null()) data["stacks"] = std::move(tree);
  return data;
}

std::string html_report_page(const report& r, const std::string& folded, size_t distribution_bytes) {
  return report_format::html_page("perf-report: " + r.path, report_page_data(r, folded, distribution_bytes).dump());
}

json diff_page_data(const diff_result& d, size_t distribution_bytes) {
  // Columns, as a report's page has them: keys written once, not once a row.
  json figures = json::object();
  for (size_t i = 0; i < metric_count; ++i)
    figures[metric_name(static_cast<metric>(i))] = {{"b", json::array()}, {"n", json::array()}, {"x", json::array()}};
  json rows = {{"name", json::array()},  {"file", json::array()},   {"line", json::array()}, {"status", json::array()},
               {"probe", json::array()}, {"impact", json::array()}, {"hb", json::array()},   {"hn", json::array()}};
  file_table files;
  std::vector<json> base_histograms, new_histograms;
  std::vector<double> impacts;
  std::vector<size_t> sizes;
  for (const function_diff& f : d.functions) {
    for (size_t i = 0; i < metric_count; ++i) {
      const change& c = f.changes[i];
      json& figure = figures[metric_name(static_cast<metric>(i))];
      figure["b"].push_back(significant_digits(c.base));
      figure["n"].push_back(significant_digits(c.now));
      figure["x"].push_back(c.beyond_noise ? 1 : 0);
    }
    const char* status = f.where == presence::added     ? "added"
                         : f.where == presence::removed ? "removed"
                         : f.too_few_calls              ? "few calls"
                         : f.slower_or_faster()         ? "changed"
                                                        : "noise";
    rows["name"].push_back(f.name);
    rows["file"].push_back(files.index_of(f.file));
    rows["line"].push_back(f.line);
    rows["status"].push_back(status);
    rows["probe"].push_back(f.probe_dominated() ? 1 : 0);
    rows["impact"].push_back(tenth(f.impact_ns));
    base_histograms.push_back(page_histogram(f.base.durations));
    new_histograms.push_back(page_histogram(f.now.durations));
    impacts.push_back(std::abs(f.impact_ns));
    sizes.push_back(text_size(base_histograms.back()) + text_size(new_histograms.back()));
  }
  const std::vector<bool> embedded = embedded_distributions(impacts, sizes, distribution_bytes);
  for (size_t i = 0; i < embedded.size(); ++i) {
    rows["hb"].push_back(embedded[i] ? std::move(base_histograms[i]) : json());
    rows["hn"].push_back(embedded[i] ? std::move(new_histograms[i]) : json());
  }
  rows["fig"] = std::move(figures);
  return {{"kind", "diff"},
          {"title", "perf-report diff"},
          {"verdict", d.verdict},
          {"broken", d.broken},
          {"base_runs", d.base_runs},
          {"new_runs", d.new_runs},
          {"files", files.take()},
          {"rows", std::move(rows)},
          {"distributions", std::count(embedded.begin(), embedded.end(), true)}};
}

std::string html_diff_page(const diff_result& d, size_t distribution_bytes) {
  return report_format::html_page("perf-report diff", diff_page_data(d, distribution_bytes).dump());
}

}  // namespace perf::perf_report
