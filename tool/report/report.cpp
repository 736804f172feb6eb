#include "report.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "report_sax.hpp"

namespace perf::report_tool {
namespace {

using nlohmann::json;

// Reads members of one JSON object, naming the file and the member in every error.
class reader {
 public:
  reader(const std::string& path, const json& object, std::string where)
      : path_(path), object_(object), where_(std::move(where)) {
    if (!object_.is_object()) fail("is not an object");
  }

  [[noreturn]] void fail(const std::string& problem) const {
    throw input_error(fmt::format("{}: {} {}", path_, where_, problem));
  }

  const json& member(const char* key) const {
    const auto found = object_.find(key);
    if (found == object_.end()) fail(fmt::format("has no \"{}\"", key));
    return *found;
  }

  double number(const char* key) const {
    const json& value = member(key);
    if (!value.is_number()) fail(fmt::format("\"{}\" is not a number", key));
    return value.get<double>();
  }

  uint64_t count(const char* key) const {
    const json& value = member(key);
    if (!value.is_number_unsigned()) fail(fmt::format("\"{}\" is not a non-negative integer", key));
    return value.get<uint64_t>();
  }

  std::string text(const char* key) const {
    const json& value = member(key);
    if (!value.is_string()) fail(fmt::format("\"{}\" is not a string", key));
    return value.get<std::string>();
  }

  const json& array(const char* key) const {
    const json& value = member(key);
    if (!value.is_array()) fail(fmt::format("\"{}\" is not an array", key));
    return value;
  }

  reader object(const char* key) const { return reader(path_, member(key), fmt::format("{}.{}", where_, key)); }

 private:
  const std::string& path_;
  const json& object_;
  std::string where_;
};

function_record read_function(const std::string& path, const json& value, size_t index,
                              parsed_histogram& histogram) {
  const reader in(path, value, fmt::format("functions[{}]", index));
  function_record f;
  f.name = in.text("name");
  f.file = in.text("file");
  f.line = static_cast<unsigned>(in.count("line"));
  f.calls = in.count("calls");
  f.total_ns = in.number("total_ns");
  f.self_ns = in.number("self_ns");
  f.min_ns = in.number("min_ns");
  f.max_ns = in.number("max_ns");
  const reader moments = in.object("moments");
  f.mean_ns = moments.number("mean_ns");
  f.m2_ns2 = moments.number("m2_ns2");
  f.alloc_total_count = in.count("alloc_total_count");
  f.alloc_total_bytes = in.count("alloc_total_bytes");
  in.array("histogram");
  if (!histogram.well_formed) in.fail("\"histogram\" holds an entry that is not [bucket, count]");
  f.durations.buckets = std::move(histogram.buckets);
  f.durations.normalize();
  if (f.durations.count() != f.calls)
    in.fail(fmt::format("\"histogram\" counts {} calls, \"calls\" says {}", f.durations.count(), f.calls));
  return f;
}

}  // namespace

double function_record::stddev_ns() const { return calls < 2 ? 0.0 : std::sqrt(m2_ns2 / static_cast<double>(calls)); }

double function_record::quantile_ns(double q) const {
  return std::min(std::max(durations.quantile_ns(q), min_ns), max_ns);
}

double report::ghz() const { return document.at("clock").at("ghz").get<double>(); }

std::unordered_map<std::string, double> report::sample_shares() const {
  std::unordered_map<std::string, double> shares;
  const auto samples = document.find("samples");
  if (samples == document.end() || !samples->contains("measured")) return shares;
  for (const json& m : samples->at("measured")) shares[m.value("name", "")] = m.value("share", 0.0);
  return shares;
}

report parse_report(const std::string& text, const std::string& path) {
  report r;
  r.path = path;
  parsed_report parsed;
  try {
    parsed = parse_report_text(text);
  } catch (const json::exception& e) {  // the SAX builders rethrow parse errors as their base class
    throw input_error(fmt::format("{}: not JSON: {}", path, e.what()));
  }
  r.document = std::move(parsed.document);
  if (!r.document.is_object()) throw input_error(fmt::format("{}: not a report: the JSON is not an object", path));
  const auto version = r.document.find("schema_version");
  if (version == r.document.end())
    throw input_error(fmt::format("{}: no \"schema_version\": a report of schema version 1, written by a runtime older "
                                  "than perf-report, which reads schema version {} (run the program again with this "
                                  "runtime)",
                                  path, schema_version));
  if (!version->is_number_integer() || version->get<int64_t>() != schema_version)
    throw input_error(fmt::format("{}: schema version {}; this perf-report reads schema version {}", path,
                                  version->dump(), schema_version));
  const reader top(path, r.document, "the report");
  const double ghz = top.object("clock").number("ghz");
  if (!(ghz > 0)) top.fail("\"clock.ghz\" is not positive");
  top.array("threads");
  if (!parsed.functions) top.array("functions");  // absent, or not an array
  r.functions.reserve(parsed.functions->size());
  for (size_t i = 0; i < parsed.functions->size(); ++i) {
    r.functions.push_back(read_function(path, (*parsed.functions)[i], i, parsed.histograms[i]));
    r.functions.back().durations.ghz = ghz;
  }
  return r;
}

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw input_error(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw input_error(fmt::format("{}: cannot read", path));
  return text.str();
}

report read_report(const std::string& path) { return parse_report(read_whole_file(path), path); }

json to_json(const report& r) {
  json out = r.document;
  json functions = json::array();
  for (const function_record& f : r.functions) {
    json histogram = json::array();
    for (const auto& [bucket, count] : f.durations.buckets) histogram.push_back({bucket, count});
    const double calls = static_cast<double>(std::max<uint64_t>(f.calls, 1));
    // The runtime's rounding: one decimal for times, two for allocations per call.
    auto tenth = [](double v) { return std::round(v * 10) / 10; };
    functions.push_back({{"name", f.name},
                         {"file", f.file},
                         {"line", f.line},
                         {"calls", f.calls},
                         {"total_ns", tenth(f.total_ns)},
                         {"self_ns", tenth(f.self_ns)},
                         {"mean_ns", tenth(f.mean_ns)},
                         {"min_ns", tenth(f.min_ns)},
                         {"max_ns", tenth(f.max_ns)},
                         {"stddev_ns", tenth(f.stddev_ns())},
                         {"p50_ns", tenth(f.quantile_ns(0.5))},
                         {"p90_ns", tenth(f.quantile_ns(0.9))},
                         {"p99_ns", tenth(f.quantile_ns(0.99))},
                         {"p999_ns", tenth(f.quantile_ns(0.999))},
                         {"alloc_count", std::round(static_cast<double>(f.alloc_total_count) / calls * 100) / 100},
                         {"alloc_bytes", tenth(static_cast<double>(f.alloc_total_bytes) / calls)},
                         {"moments", {{"mean_ns", f.mean_ns}, {"m2_ns2", f.m2_ns2}}},
                         {"alloc_total_count", f.alloc_total_count},
                         {"alloc_total_bytes", f.alloc_total_bytes},
                         {"histogram", std::move(histogram)}});
  }
  out["functions"] = std::move(functions);
  return out;
}

void write_file_atomically(const std::string& path, const std::string& text) {
  const std::string temporary = fmt::format("{}.tmp{}", path, getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw input_error(fmt::format("{}: cannot write: {}", path, std::strerror(errno)));
    out << text;
    out.close();
    if (!out) {
      std::remove(temporary.c_str());
      throw input_error(fmt::format("{}: cannot write", path));
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::remove(temporary.c_str());
    throw input_error(fmt::format("{}: cannot write: {}", path, std::strerror(error)));
  }
}

}  // namespace perf::report_tool
