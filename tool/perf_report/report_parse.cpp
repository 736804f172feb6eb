// parse_report (report.hpp) on simdjson's On-Demand API: the functions[] rows, most
// of a large report (10,000 functions x ~100 histogram buckets), go straight into
// function_records; every other section becomes nlohmann::json as
// nlohmann::json::parse would make it. Every value is visited, so text that is not
// JSON is refused wherever it is, and so are nesting deeper than max_nesting_depth (the
// visit recurses) and a member twice in one object (which value would count?). Problems are reported in the order the
// report is checked (JSON, schema version, top-level sections, then each function, then duplicate rows), whatever the
// order of the members in the file, each with its JSON path.
#include <simdjson.h>

#include <array>
#include <cstdint>
#include <optional>
#include <set>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>

#include <fmt/format.h>

#include "file_text.hpp"
#include "function_location.hpp"
#include "parsed_report.hpp"
#include "perf/detail/histogram_index.hpp"
#include "record_columns.hpp"
#include "report_format/function_columns.hpp"
#include "report_format/schema.hpp"
#include "report_format/text_format.hpp"
#include "report_ranges.hpp"
#include "report_sections.hpp"

namespace perf::perf_report {
namespace {

using nlohmann::json;
namespace ondemand = simdjson::ondemand;

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

  bool has(const char* key) const { return object_.contains(key); }

  bool boolean_or(const char* key, bool absent) const {
    if (!has(key)) return absent;
    const json& value = member(key);
    if (!value.is_boolean()) fail(fmt::format("\"{}\" is not a boolean", key));
    return value.get<bool>();
  }

  void array(const char* key) const {
    if (!member(key).is_array()) fail(fmt::format("\"{}\" is not an array", key));
  }

  reader object(const char* key) const { return reader(path_, member(key), fmt::format("{}.{}", where_, key)); }

 private:
  const std::string& path_;
  const json& object_;
  std::string where_;
};

// Where a value lies in the report, for messages: the chain of its enclosing members
// and elements, spelled out ("samples.top[3].function") only when the value is refused.
struct json_path {
  const json_path* parent = nullptr;
  std::string_view key;  // a member's name (when not an element)
  size_t index = 0;      // an element's index
  bool element = false;
  unsigned depth = 0;  // values enclosing this one

  json_path member(std::string_view name) const { return {this, name, 0, false, depth + 1}; }
  json_path at(size_t i) const { return {this, {}, i, true, depth + 1}; }

  std::string text() const {
    if (parent == nullptr) return "the report";
    const std::string before = parent->parent == nullptr ? "" : parent->text();
    if (element) return fmt::format("{}[{}]", before, index);
    const std::string name = report_format::printable(std::string(key));  // the message stays one line
    return before.empty() ? name : fmt::format("{}.{}", before, name);
  }
};

// A value refused as JSON is read (nested deeper than max_nesting_depth, a member
// twice): where it is and the problem, reported with the file's name.
struct refused_value {
  std::string where;
  std::string problem;
};

[[noreturn]] void refuse_repeated(const json_path& object, std::string_view key) {
  throw refused_value{object.text(), fmt::format("has \"{}\" twice", report_format::printable(std::string(key)))};
}

// The names of one object's members read so far, for refuse_repeated.
class member_names {
 public:
  void add(const json_path& object, std::string_view key) {
    if (!names_.insert(key).second) refuse_repeated(object, key);
  }

 private:
  std::set<std::string_view> names_;  // views of simdjson's buffer: they live as long as the document
};

json to_json_value(ondemand::value value, const json_path& where) {
  // Recursion, one level per nesting level: bounded, so that a hostile report cannot
  // exhaust the stack (a real one nests 5 levels).
  if (where.depth > max_nesting_depth)
    throw refused_value{where.text(),
                        fmt::format("is nested deeper than {} levels, more than a report ever is", max_nesting_depth)};
  switch (value.type().value()) {
    case ondemand::json_type::object: {
      json object = json::object();
      for (auto field : value.get_object()) {
        std::string key(field.unescaped_key().value());
        if (object.contains(key)) refuse_repeated(where, key);
        json member = to_json_value(field.value(), where.member(key));
        object[std::move(key)] = std::move(member);
      }
      return object;
    }
    case ondemand::json_type::array: {
      json array = json::array();
      size_t index = 0;
      for (auto element : value.get_array()) array.push_back(to_json_value(element.value(), where.at(index++)));
      return array;
    }
    case ondemand::json_type::number:
      switch (value.get_number_type().value()) {
        case ondemand::number_type::signed_integer: {  // nlohmann keeps non-negative integers unsigned
          const int64_t v = value.get_int64().value();
          return v >= 0 ? json(static_cast<uint64_t>(v)) : json(v);
        }
        case ondemand::number_type::unsigned_integer: return json(value.get_uint64().value());
        case ondemand::number_type::floating_point_number: return json(value.get_double().value());
      }
      return json(value.get_double().value());
    case ondemand::json_type::string: return json(std::string(value.get_string().value()));
    case ondemand::json_type::boolean: return json(value.get_bool().value());
    case ondemand::json_type::null:
      if (!value.is_null()) throw simdjson::simdjson_error(simdjson::N_ATOM_ERROR);
      return json(nullptr);
  }
  return json();
}

// Whether `result`, read from `value`, has the type asked for; when not, `value` is
// still checked as JSON. Any other error (text that is not JSON) throws simdjson_error.
template <class T>
bool has_type(ondemand::value& value, const simdjson::simdjson_result<T>& result, const json_path& where) {
  const simdjson::error_code error = result.error();
  if (error != simdjson::INCORRECT_TYPE && error != simdjson::NUMBER_OUT_OF_RANGE) {
    if (error != simdjson::SUCCESS) throw simdjson::simdjson_error(error);
    return true;
  }
  to_json_value(value, where);
  return false;
}

template <class T>
std::optional<T> typed(ondemand::value& value, simdjson::simdjson_result<T> result, const json_path& where) {
  if (!has_type(value, result, where)) return std::nullopt;
  return result.value_unsafe();
}

using report_format::function_column;
using report_format::function_field;
using report_format::json_form;
using report_format::json_name;
using report_format::moments_field;
using report_format::presence;

// One functions[] element as read: each column of the runtime's row
// (report_format::function_columns) found with the right type, found with another, or
// missing; the derived ones (p50_ns, ...) are not read, only checked as JSON. Each
// read column goes to its record member (record_columns.hpp).
class row_reader {
 public:
  enum class state { missing, wrong_type, found };

  void read(ondemand::value value, const json_path& row) {
    auto object = value.get_object();
    if (!has_type(value, object, row)) {
      is_object_ = false;
      return;
    }
    for (auto member : object.value()) {
      const std::string_view key = member.unescaped_key().value();
      ondemand::value v = member.value();
      const json_path where = row.member(key);
      const std::optional<function_field> field = report_format::field_named(report_format::function_columns, key);
      if (!field) {
        other_names_.add(row, key);
        to_json_value(v, where);  // not the schema's: checked as JSON
        continue;
      }
      if (std::exchange(seen_[static_cast<size_t>(*field)], true)) refuse_repeated(row, key);
      const function_column& c = report_format::column(*field);
      if (c.read == presence::derived) {
        to_json_value(v, where);
        continue;
      }
      state& s = state_of(*field);
      switch (c.form) {
        case json_form::moments: read_moments(v, where); break;
        case json_form::histogram: read_histogram(v, where); break;
        case json_form::text: take(s, typed(v, v.get_string(), where), *field); break;
        case json_form::integer: take(s, typed(v, v.get_uint64(), where), *field); break;
        case json_form::flag: take(s, typed(v, v.get_bool(), where), *field); break;
        case json_form::number: take(s, typed(v, v.get_double(), where), *field); break;
      }
    }
  }

  // The record, or input_error naming the first problem as the checks meet it.
  function_record take_record(const std::string& path, size_t index) {
    const std::string where = fmt::format("functions[{}]", index);
    auto fail = [&](const std::string& in, const std::string& problem) {
      throw input_error(fmt::format("{}: {} {}", path, in, problem));
    };
    if (!is_object_) fail(where, "is not an object");
    auto check_state = [&](state s, std::string_view name, const std::string& in, std::string_view type) {
      if (s == state::missing) fail(in, fmt::format("has no \"{}\"", name));
      if (s == state::wrong_type) fail(in, fmt::format("\"{}\" is not {}", name, type));
    };
    auto check = [&](const function_column& c) {
      check_state(state_of(c.field), c.json, where, report_format::json_type_name(c.form));
    };
    for (const function_column& c : report_format::function_columns) {
      if (c.read != presence::required) continue;
      if (c.form == json_form::moments) {
        if (state_of(c.field) == state::missing) fail(where, fmt::format("has no \"{}\"", c.json));
        const std::string in_moments = fmt::format("{}.{}", where, c.json);
        if (state_of(c.field) == state::wrong_type) fail(in_moments, "is not an object");
        for (const auto& m : report_format::moments_fields)
          check_state(moment_states_[static_cast<size_t>(m.field)], m.json, in_moments, "a number");
        continue;
      }
      check(c);
      if (c.form == json_form::histogram && !histogram_well_formed_)
        fail(where, "\"histogram\" holds an entry that is not [bucket, count]");
    }
    // Adaptive timing's timed_calls and the runtime's verdict: a report older than
    // them lacks them (and timed every call).
    for (const function_column& c : report_format::function_columns)
      if (c.read == presence::optional && state_of(c.field) != state::missing) check(c);
    if (!histogram_problem_.empty())
      throw input_error(fmt::format("{}: {}.histogram{}", path, where, histogram_problem_));
    if (state_of(function_field::timed_calls) == state::missing) record_.timed_calls = record_.calls;
    // The mean of every call with its interval, read where calls were sampled; else
    // the timed calls' mean.
    for (const function_column& c : report_format::function_columns) {
      if (c.read != presence::when_estimated) continue;
      if (record_.estimated()) check(c);
      else record_.*std::get<double function_record::*>(record_column_of(c.field).member) = record_.mean_ns;
    }
    // The ranges: what the runtime can write, and what the arithmetic on it stays
    // defined for (counts exact as doubles, times not negative nor past a clock's count).
    for (const function_column& c : report_format::function_columns) {
      if (c.range != report_format::range_rule::line) continue;
      const uint64_t line = wide_[static_cast<size_t>(c.field)];
      if (line > UINT32_MAX) fail(where, fmt::format("\"{}\" is above {}", c.json, UINT32_MAX));
      record_.*std::get<unsigned function_record::*>(record_column_of(c.field).member) = static_cast<unsigned>(line);
    }
    check_function_ranges(record_, path, where);
    return std::move(record_);
  }

 private:
  state& state_of(function_field f) { return states_[static_cast<size_t>(f)]; }

  // A value read into the column's record member (an unsigned one kept wide until its
  // range is checked).
  template <class T>
  void take(state& s, std::optional<T> value, function_field field) {
    s = value ? state::found : state::wrong_type;
    if (!value) return;
    std::visit(
        [&](auto member) {
          if constexpr (std::is_same_v<decltype(member), unsigned function_record::*>) {
            if constexpr (std::is_same_v<T, uint64_t>) wide_[static_cast<size_t>(field)] = *value;
          } else if constexpr (!std::is_same_v<decltype(member), std::monostate>) {
            using U = std::remove_reference_t<decltype(record_.*member)>;
            if constexpr (std::is_constructible_v<U, T>) record_.*member = U(*value);
          }
        },
        record_column_of(field).member);
  }
  template <class T, class U>
  static void take(state& s, std::optional<T> value, U& into) {
    s = value ? state::found : state::wrong_type;
    if (value) into = static_cast<U>(*value);
  }

  void read_moments(ondemand::value value, const json_path& where) {
    auto object = value.get_object();
    if (!has_type(value, object, where)) {
      state_of(function_field::moments) = state::wrong_type;
      return;
    }
    state_of(function_field::moments) = state::found;
    member_names others;
    for (auto member : object.value()) {
      const std::string_view key = member.unescaped_key().value();
      ondemand::value v = member.value();
      const json_path member_path = where.member(key);
      const std::optional<moments_field> field = report_format::field_named(report_format::moments_fields, key);
      if (!field) {
        others.add(where, key);
        to_json_value(v, member_path);
        continue;
      }
      state& s = moment_states_[static_cast<size_t>(*field)];
      if (s != state::missing) refuse_repeated(where, key);
      switch (*field) {
        case moments_field::mean_ns: take(s, typed(v, v.get_double(), member_path), record_.mean_ns); break;
        case moments_field::m2_ns2: take(s, typed(v, v.get_double(), member_path), record_.m2_ns2); break;
      }
    }
  }

  // Entries as the runtime writes them: [bucket, count], buckets ascending, each once,
  // none past the last; counts adding up to at most max_count. The first entry that is
  // not is named in histogram_problem_ (its index and what is wrong).
  void read_histogram(ondemand::value value, const json_path& where) {
    auto array = value.get_array();
    if (!has_type(value, array, where)) {
      state_of(function_field::histogram) = state::wrong_type;
      return;
    }
    state_of(function_field::histogram) = state::found;
    histogram_well_formed_ = true;
    // Collected in a buffer kept from row to row, then copied once: a row's vector
    // grown entry by entry would be allocated ~8 times.
    thread_local std::vector<std::pair<unsigned, uint64_t>> entries;
    entries.clear();
    histogram_count_ = 0;
    size_t index = 0;
    uint64_t previous_bucket = 0;
    for (auto element : array.value()) {
      const size_t entry_index = index++;
      const json_path entry_path = where.at(entry_index);
      ondemand::value entry_value = element.value();
      auto entry = entry_value.get_array();
      if (!has_type(entry_value, entry, entry_path)) {
        histogram_well_formed_ = false;
        continue;
      }
      uint64_t pair[2] = {0, 0};
      size_t size = 0;
      for (auto number : entry.value()) {
        ondemand::value v = number.value();
        const std::optional<uint64_t> n = typed(v, v.get_uint64(), entry_path.at(size));
        if (!n || size >= 2) histogram_well_formed_ = false;
        else pair[size] = *n;
        ++size;
      }
      const auto [bucket, count] = pair;
      if (size != 2) {
        histogram_well_formed_ = false;
      } else if (histogram_problem_.empty()) {
        if (bucket >= detail::histogram_buckets)
          histogram_problem_ = fmt::format("[{}] bucket {} is past the last bucket, {}", entry_index, bucket,
                                           detail::histogram_buckets - 1);
        else if (entry_index > 0 && bucket <= previous_bucket)
          histogram_problem_ = fmt::format("[{}] bucket {} follows bucket {} (buckets ascend, each once)", entry_index,
                                           bucket, previous_bucket);
        else if (count > max_count - histogram_count_)
          histogram_problem_ = fmt::format("[{}] count {} makes more than 2^53 calls", entry_index, count);
        histogram_count_ += histogram_problem_.empty() ? count : 0;
        previous_bucket = bucket;
        if (histogram_problem_.empty() && count != 0) entries.emplace_back(static_cast<unsigned>(bucket), count);
      }
    }
    record_.durations.buckets.assign(entries.begin(), entries.end());
  }

  function_record record_;
  bool is_object_ = true;
  bool histogram_well_formed_ = true;
  std::string histogram_problem_;  // "[3] bucket 4000 is past the last bucket, 3775"
  uint64_t histogram_count_ = 0;
  std::array<state, report_format::function_columns.size()> states_{};   // all missing
  std::array<bool, report_format::function_columns.size()> seen_{};      // the schema's members read, derived ones too
  std::array<uint64_t, report_format::function_columns.size()> wide_{};  // the unsigned members as read
  member_names other_names_;                                             // the members not in the schema
  std::array<state, report_format::moments_fields.size()> moment_states_{};
};

struct parsed_report {
  json document = json::object();  // without "functions" when it is an array
  std::optional<std::vector<function_record>> functions;
  // The first functions[] element's problem: reported after those of the top level.
  std::optional<input_error> function_problem;
};

void parse_document(ondemand::document& document, const std::string& path, parsed_report& out) {
  const json_path root;
  if (document.type().value() != ondemand::json_type::object) {
    if (document.type().value() == ondemand::json_type::array) {
      size_t index = 0;
      for (auto element : document.get_array()) to_json_value(element.value(), root.at(index++));
    }
    out.document = json();
    return;
  }
  member_names names;
  for (auto member : document.get_object()) {
    const std::string_view name = member.unescaped_key().value();
    names.add(root, name);
    std::string key(name);
    ondemand::value value = member.value();
    const json_path where = root.member(key);
    if (key == "functions" && value.type().value() == ondemand::json_type::array) {
      out.functions.emplace();
      size_t index = 0;
      // Each element becomes a record as it is read; after a problem, elements are
      // still read (the JSON checked) but no longer kept.
      for (auto element : value.get_array()) {
        row_reader fields;
        fields.read(element.value(), where.at(index));
        if (!out.function_problem) {
          try {
            out.functions->push_back(fields.take_record(path, index));
          } catch (const input_error& problem) { out.function_problem = problem; }
        }
        ++index;
      }
      out.document.erase(key);
    } else {
      json section = to_json_value(value, where);
      out.document[std::move(key)] = std::move(section);
    }
  }
}

report parse_padded(simdjson::padded_string_view padded, const std::string& path) {
  // Kept from report to report: its buffers, as large as the largest report, are
  // allocated (and their pages touched) once. A quarter more than asked, so that the
  // other report of a diff, a little larger, still fits.
  thread_local ondemand::parser parser;
  if (parser.capacity() < padded.length() &&
      parser.allocate(padded.length() + padded.length() / 4) != simdjson::SUCCESS)
    throw input_error(fmt::format("{}: cannot read: no memory to parse {} bytes of JSON", path, padded.length()));
  parsed_report parsed;
  ondemand::document document;
  try {
    document = parser.iterate(padded);
    parse_document(document, path, parsed);
    if (document.current_location().error() == simdjson::SUCCESS)  // something after the value
      throw simdjson::simdjson_error(simdjson::TRAILING_CONTENT);
  } catch (const simdjson::simdjson_error& e) {
    throw input_error(fmt::format("{}: not JSON: {}", path, e.what()));
  } catch (const refused_value& e) { throw input_error(fmt::format("{}: {} {}", path, e.where, e.problem)); }
  report r;
  r.path = path;
  r.document = std::move(parsed.document);
  if (!r.document.is_object()) throw input_error(fmt::format("{}: not a report: the JSON is not an object", path));
  const auto version = r.document.find("schema_version");
  if (version == r.document.end())
    throw input_error(
        fmt::format("{}: no \"schema_version\": a report of schema version 1, written by a runtime older "
                    "than perf-report, which reads schema version {} (run the program again with this "
                    "runtime)",
                    path, report_format::schema_version));
  if (!version->is_number_integer() || version->get<int64_t>() != report_format::schema_version)
    throw input_error(fmt::format("{}: schema version {}; this perf-report reads schema version {}", path,
                                  version->dump(), report_format::schema_version));
  const reader top(path, r.document, "the report");
  const reader clock = top.object("clock");
  const double ghz = clock.number("ghz");
  if (!(ghz > 0)) top.fail("\"clock.ghz\" is not positive");
  if (ghz < min_ghz || ghz > max_ghz)
    top.fail(fmt::format("\"clock.ghz\" is {}, not a clock's rate ({} to {} GHz)", ghz, min_ghz, max_ghz));
  for (const char* key : {"resolution_ns", "probe_ns", "probe_inside_ns"}) {
    if (clock.has(key) && clock.number(key) < 0) clock.fail(fmt::format("\"{}\" is negative", key));
    if (clock.has(key) && clock.number(key) > max_duration_ns)
      clock.fail(fmt::format("\"{}\" is above 2^64 ns, more than a clock counts", key));
  }
  // The probe's cost (absent: 0, no function is probe-dominated when merged).
  const double probe_ns = clock.has("probe_ns") ? clock.number("probe_ns") : 0.0;
  const double reported_inside_ns = clock.has("probe_inside_ns") ? clock.number("probe_inside_ns") : 0.0;
  const bool compensated = clock.boolean_or("compensated", false);
  const double inside_ns = compensated ? 0.0 : reported_inside_ns;
  top.array("threads");
  if (!parsed.functions) top.array("functions");  // absent, or not an array
  check_sections(r.document, path);
  if (parsed.function_problem) throw *parsed.function_problem;
  r.functions = std::move(*parsed.functions);
  // A location twice would be counted twice by a diff (its side "merged" with itself).
  std::unordered_map<function_location, size_t, function_location_hash> first_row;
  first_row.reserve(r.functions.size());
  for (size_t i = 0; i < r.functions.size(); ++i) {
    const auto [found, fresh] = first_row.try_emplace(function_location::of(r.functions[i]), i);
    if (!fresh)
      throw input_error(
          fmt::format("{}: functions[{}] has the name, file and line of functions[{}]", path, i, found->second));
  }
  r.resolution_ns = clock.has("resolution_ns") ? clock.number("resolution_ns") : 0.0;
  r.compensated_ns = compensated ? reported_inside_ns : 0.0;
  for (function_record& f : r.functions) {
    f.durations.ghz = ghz;
    f.probe_ns = probe_ns;
    f.probe_inside_ns = inside_ns;
  }
  return r;
}

}  // namespace

report parse_report(const std::string& text, const std::string& path) {
  if (text.capacity() - text.size() >= simdjson::SIMDJSON_PADDING)
    return parse_padded(simdjson::padded_string_view(text.data(), text.size(), text.capacity()), path);
  const simdjson::padded_string copy(text);
  return parse_padded(copy, path);
}

report read_report(const std::string& path, size_t max_bytes) {
  const file_text file(path, simdjson::SIMDJSON_PADDING, max_bytes);
  return parse_padded(simdjson::padded_string_view(file.text().data(), file.text().size(), file.readable()), path);
}

}  // namespace perf::perf_report
