#include "html.hpp"

#include <cmath>
#include <map>
#include <sstream>

#include "report/html_page.hpp"

namespace perf::report_tool {
namespace {

using nlohmann::json;

double tenth(double v) { return std::round(v * 10) / 10; }

// A histogram as [ghz, first bucket, its count, the next bucket's count, ...], empty
// buckets between as 0: shorter than (bucket, count) pairs, since hit buckets are
// mostly neighbours.
json histogram_data(const histogram& h) {
  json flat = json::array({h.ghz});
  if (h.buckets.empty()) return flat;
  flat.push_back(h.buckets.front().first);
  unsigned next = h.buckets.front().first;
  for (const auto& [bucket, count] : h.buckets) {
    for (; next < bucket; ++next) flat.push_back(0);
    flat.push_back(count);
    ++next;
  }
  return flat;
}

// Folded stacks as a tree of {"n": name, "v": samples, "c": [children]}.
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
    } catch (const std::exception&) {
      continue;
    }
    node* at = &root;
    at->value += count;
    std::istringstream frames(line.substr(0, space));
    std::string frame;
    while (std::getline(frames, frame, ';')) {
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

json report_page_data(const report& r, const std::string& folded) {
  json columns = {{"name", json::array()},  {"file", json::array()}, {"line", json::array()}, {"calls", json::array()},
                  {"total", json::array()}, {"self", json::array()}, {"mean", json::array()}, {"sd", json::array()},
                  {"min", json::array()},   {"max", json::array()},  {"p50", json::array()},  {"p90", json::array()},
                  {"p99", json::array()},   {"ac", json::array()},   {"ab", json::array()},   {"share", json::array()},
                  {"h", json::array()}};
  const std::unordered_map<std::string, double> shares = r.sample_shares();
  for (const function_record& f : r.functions) {
    const auto share = shares.find(f.name);
    const double calls = static_cast<double>(std::max<uint64_t>(f.calls, 1));
    columns["name"].push_back(f.name);
    columns["file"].push_back(f.file);
    columns["line"].push_back(f.line);
    columns["calls"].push_back(f.calls);
    columns["total"].push_back(tenth(f.total_ns));
    columns["self"].push_back(tenth(f.self_ns));
    columns["mean"].push_back(tenth(f.mean_ns));
    columns["sd"].push_back(tenth(f.stddev_ns()));
    columns["min"].push_back(tenth(f.min_ns));
    columns["max"].push_back(tenth(f.max_ns));
    columns["p50"].push_back(tenth(f.quantile_ns(0.5)));
    columns["p90"].push_back(tenth(f.quantile_ns(0.9)));
    columns["p99"].push_back(tenth(f.quantile_ns(0.99)));
    columns["ac"].push_back(std::round(static_cast<double>(f.alloc_total_count) / calls * 100) / 100);
    columns["ab"].push_back(tenth(static_cast<double>(f.alloc_total_bytes) / calls));
    columns["share"].push_back(share == shares.end() ? 0.0 : std::round(share->second * 10000) / 10000);
    columns["h"].push_back(histogram_data(f.durations));
  }
  json data = {{"kind", "report"}, {"title", r.path}, {"functions", std::move(columns)}};
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

std::string html_report_page(const report& r, const std::string& folded) {
  return html_page::page("perf-report: " + r.path, report_page_data(r, folded).dump());
}

std::string html_diff_page(const diff_result& d) {
  json rows = json::array();
  for (const function_diff& f : d.functions) {
    json figures = json::object();
    for (size_t i = 0; i < metric_count; ++i) {
      const change& c = f.changes[i];
      figures[metric_name(static_cast<metric>(i))] = {c.base, c.now, c.beyond_noise};
    }
    const char* status = f.where == presence::added     ? "added"
                         : f.where == presence::removed ? "removed"
                         : f.too_few_calls              ? "few calls"
                         : f.slower_or_faster()         ? "changed"
                                                        : "noise";
    rows.push_back({{"name", f.name},
                    {"file", f.file},
                    {"line", f.line},
                    {"status", status},
                    {"impact", tenth(f.impact_ns)},
                    {"fig", std::move(figures)},
                    {"hb", histogram_data(f.base.durations)},
                    {"hn", histogram_data(f.now.durations)}});
  }
  const json data = {{"kind", "diff"},           {"title", "perf-report diff"}, {"verdict", d.verdict},
                     {"broken", d.broken},       {"base_runs", d.base_runs},    {"new_runs", d.new_runs},
                     {"rows", std::move(rows)}};
  return html_page::page("perf-report diff", data.dump());
}

}  // namespace perf::report_tool
