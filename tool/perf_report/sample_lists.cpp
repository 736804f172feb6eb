#include "sample_lists.hpp"

#include <algorithm>
#include <map>

namespace perf::perf_report {
namespace {

using nlohmann::json;
using location = std::vector<std::string>;

// What one list says: counts (at least, at most) of the locations it names, and the
// most a location it does not name can have.
struct listing {
  std::map<location, std::pair<uint64_t, uint64_t>> named;
  uint64_t unlisted_at_most = 0;

  // [at least, at most] for `where` by this list alone.
  std::pair<uint64_t, uint64_t> bounds(const location& where) const {
    const auto found = named.find(where);
    return found == named.end() ? std::pair<uint64_t, uint64_t>{0, unlisted_at_most} : found->second;
  }
};

void by_samples(json& rows) {
  std::stable_sort(rows.begin(), rows.end(), [](const json& a, const json& b) {
    return a.value("samples", uint64_t{0}) > b.value("samples", uint64_t{0});
  });
}

location location_of(const json& row, const std::vector<std::string>& key_fields) {
  location where;
  for (const std::string& field : key_fields) where.push_back(row.value(field, json()).dump());
  return where;
}

// `rows`, a list of the hottest of `samples` samples; `given_unlisted` the bound a
// merged report states (null when the list is a runtime's own).
listing read_listing(const json& rows, uint64_t samples, const json& given_unlisted,
                     const std::vector<std::string>& key_fields, std::map<location, json>& first_rows) {
  listing l;
  uint64_t listed = 0, least = UINT64_MAX;
  for (const json& row : rows) {
    const location where = location_of(row, key_fields);
    const uint64_t n = row.value("samples", uint64_t{0});
    auto& [at_least, at_most] = l.named[where];
    at_least += n;
    at_most += row.value("samples_at_most", n);
    listed += n;
    least = std::min(least, n);
    first_rows.try_emplace(where, row);
  }
  // A list holds its hottest: one it leaves out has no more than the least listed,
  // nor more than the samples the list does not account for.
  l.unlisted_at_most = given_unlisted.is_number() ? given_unlisted.get<uint64_t>()
                                                  : std::min(least, samples > listed ? samples - listed : 0);
  return l;
}

// One report's lists: its own, and its threads' (for "top").
struct report_lists {
  listing whole;
  std::vector<listing> threads;
  bool has_threads = false;

  std::pair<uint64_t, uint64_t> bounds(const location& where) const {
    if (whole.named.count(where) != 0 || !has_threads) return whole.bounds(where);
    uint64_t at_least = 0, at_most = 0;
    for (const listing& t : threads) {
      const auto [low, high] = t.bounds(where);
      at_least += low, at_most += high;
    }
    return {at_least, std::min(at_most, whole.unlisted_at_most)};
  }

  // The most samples a location that none of these lists names can have had.
  uint64_t unlisted_at_most() const {
    if (!has_threads) return whole.unlisted_at_most;
    uint64_t at_most = 0;
    for (const listing& t : threads) at_most += t.unlisted_at_most;
    return std::min(at_most, whole.unlisted_at_most);
  }
};

}  // namespace

json summed_samples(const std::vector<const json*>& lists, const std::vector<std::string>& key_fields, uint64_t total) {
  std::map<location, json> by_location;
  for (const json* list : lists) {
    for (const json& row : *list) {
      auto [entry, fresh] = by_location.emplace(location_of(row, key_fields), row);
      if (!fresh)
        entry->second["samples"] = entry->second.value("samples", uint64_t{0}) + row.value("samples", uint64_t{0});
    }
  }
  json out = json::array();
  for (auto& [where, row] : by_location) {
    const uint64_t samples = row.value("samples", uint64_t{0});
    row["share"] = total == 0 ? 0.0 : static_cast<double>(samples) / static_cast<double>(total);
    out.push_back(std::move(row));
  }
  by_samples(out);
  return out;
}

merged_hottest merge_hottest(const std::vector<const json*>& sections, const std::string& list,
                             const std::vector<std::string>& key_fields, uint64_t total) {
  std::map<location, json> first_rows;
  std::vector<report_lists> reports;
  const json no_rows = json::array();
  for (const json* s : sections) {
    report_lists& r = reports.emplace_back();
    const json given = s->contains("unlisted_at_most") ? s->at("unlisted_at_most").value(list, json()) : json();
    r.whole = read_listing(s->value(list, no_rows), s->value("total", uint64_t{0}), given, key_fields, first_rows);
    r.has_threads = list == "top" && s->contains("threads");
    if (!r.has_threads) continue;
    for (const json& t : s->at("threads"))
      r.threads.push_back(
          read_listing(t.value("top", no_rows), t.value("samples", uint64_t{0}), json(), key_fields, first_rows));
  }
  merged_hottest out;
  out.rows = json::array();
  for (auto& [where, row] : first_rows) {
    uint64_t at_least = 0, at_most = 0;
    for (const report_lists& r : reports) {
      const auto [low, high] = r.bounds(where);
      at_least += low, at_most += high;
    }
    row.erase("samples_at_most");
    row["samples"] = at_least;
    if (at_most > at_least) row["samples_at_most"] = at_most;
    row["share"] = total == 0 ? 0.0 : static_cast<double>(at_least) / static_cast<double>(total);
    out.rows.push_back(std::move(row));
  }
  by_samples(out.rows);
  for (const report_lists& r : reports) out.unlisted_at_most += r.unlisted_at_most();
  return out;
}

}  // namespace perf::perf_report
