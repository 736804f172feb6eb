#include "merge.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace perf::report_tool {
namespace {

using nlohmann::json;

// Rows of `key` from every report, each with its report's pid added.
json concatenated_rows(const std::vector<report>& reports, const json::json_pointer& rows) {
  json out = json::array();
  for (const report& r : reports) {
    if (!r.document.contains(rows)) continue;
    for (json row : r.document.at(rows)) {
      row["pid"] = r.document.value("pid", 0);
      out.push_back(std::move(row));
    }
  }
  return out;
}

// Sample lists summed by `key_fields`, share recomputed against `total`, most first.
json summed_samples(const std::vector<const json*>& lists, const std::vector<std::string>& key_fields, uint64_t total) {
  std::map<std::vector<std::string>, json> by_key;
  for (const json* list : lists) {
    for (const json& row : *list) {
      std::vector<std::string> key;
      for (const std::string& field : key_fields) key.push_back(row.value(field, json()).dump());
      auto [entry, fresh] = by_key.emplace(key, row);
      if (!fresh) entry->second["samples"] = entry->second.value("samples", uint64_t{0}) + row.value("samples", uint64_t{0});
    }
  }
  json out = json::array();
  for (auto& [key, row] : by_key) {
    row["share"] = total == 0 ? 0.0 : static_cast<double>(row.value("samples", uint64_t{0})) / static_cast<double>(total);
    out.push_back(std::move(row));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const json& a, const json& b) { return a.value("samples", uint64_t{0}) > b.value("samples", uint64_t{0}); });
  return out;
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
    if (s->value("hz", 0u) != out.value("hz", 0u)) out["hz"] = 0;  // mixed rates: none applies
  }
  out["total"] = total;
  out["dropped"] = dropped;
  auto lists = [&](const char* key) {
    std::vector<const json*> found;
    for (const json* s : sections)
      if (s->contains(key)) found.push_back(&s->at(key));
    return found;
  };
  out["top"] = summed_samples(lists("top"), {"function", "file"}, total);
  out["lines"] = summed_samples(lists("lines"), {"function", "file", "line"}, total);
  out["measured"] = summed_samples(lists("measured"), {"name"}, total);
  json threads = json::array();
  for (const report& r : reports) {
    if (!r.document.contains("samples") || !r.document["samples"].contains("threads")) continue;
    for (json t : r.document["samples"]["threads"]) {
      t["pid"] = r.document.value("pid", 0);
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
    if (out.is_null())
      out = {{"counting", counting}};
    else if (out["counting"] != counting)
      out["counting"] = "mixed";
  }
  if (!out.is_null()) out["threads"] = concatenated_rows(reports, json::json_pointer("/allocations/threads"));
  return out;
}

json merged_clock(const std::vector<report>& reports, bool same_rate) {
  json clock = reports.front().document.at("clock");
  for (const report& r : reports) {
    const json& c = r.document.at("clock");
    if (c.value("source", "") != clock.value("source", "")) clock["source"] = "merged";
    clock["resolution_ns"] = std::max(clock.value("resolution_ns", 0.0), c.value("resolution_ns", 0.0));
    if (c.contains("probe_ns")) clock["probe_ns"] = std::max(clock.value("probe_ns", 0.0), c.value("probe_ns", 0.0));
  }
  if (!same_rate) {
    clock["source"] = "merged";
    clock["ghz"] = 1.0;
    clock["frequency"] = "merged";
  }
  return clock;
}

}  // namespace

void merge_function(function_record& a, const function_record& b) {
  if (b.calls == 0) return;
  if (a.calls == 0) {
    const histogram durations = a.durations;
    a = b;
    a.durations = durations;
    a.durations.merge(b.durations);
    return;
  }
  const double n_a = static_cast<double>(a.calls), n_b = static_cast<double>(b.calls), n = n_a + n_b;
  const double delta = b.mean_ns - a.mean_ns;
  a.mean_ns += delta * n_b / n;
  a.m2_ns2 += b.m2_ns2 + delta * delta * n_a * n_b / n;
  a.calls += b.calls;
  a.total_ns += b.total_ns;
  a.self_ns += b.self_ns;
  a.min_ns = std::min(a.min_ns, b.min_ns);
  a.max_ns = std::max(a.max_ns, b.max_ns);
  a.alloc_total_count += b.alloc_total_count;
  a.alloc_total_bytes += b.alloc_total_bytes;
  a.durations.merge(b.durations);
}

report merge_reports(const std::vector<report>& reports) {
  const double ghz = reports.front().ghz();
  const bool same_rate =
      std::all_of(reports.begin(), reports.end(), [&](const report& r) { return r.ghz() == ghz; });
  report out;
  out.path = "merged";
  out.document = {{"schema_version", schema_version}, {"pid", 0}};
  json pids = json::array();
  for (const report& r : reports) pids.push_back(r.document.value("pid", 0));
  out.document["merged_pids"] = std::move(pids);
  out.document["clock"] = merged_clock(reports, same_rate);
  out.document["threads"] = concatenated_rows(reports, json::json_pointer("/threads"));
  for (const auto& [key, section] : {std::pair{"ticklog", merged_ticklog(reports)},
                                     std::pair{"allocations", merged_allocations(reports)},
                                     std::pair{"samples", merged_samples(reports)}})
    if (!section.is_null()) out.document[key] = section;

  std::map<std::tuple<std::string, std::string, unsigned>, function_record> by_location;
  for (const report& r : reports) {
    for (const function_record& f : r.functions) {
      auto [entry, fresh] = by_location.try_emplace({f.name, f.file, f.line});
      if (fresh) entry->second.durations.ghz = same_rate ? ghz : 1.0;
      merge_function(entry->second, f);
    }
  }
  for (auto& [where, f] : by_location) out.functions.push_back(std::move(f));
  std::stable_sort(out.functions.begin(), out.functions.end(),
                   [](const function_record& a, const function_record& b) { return a.total_ns > b.total_ns; });
  return out;
}

}  // namespace perf::report_tool
