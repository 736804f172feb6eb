// Field numbers are profile.proto's; the schema is fixed and small, so it is written
// by hand.
#include "sampler/pprof_builder.hpp"

#include <utility>

namespace perf::runtime {
namespace {

namespace field {
// Profile
constexpr unsigned sample_type = 1, sample = 2, mapping = 3, location = 4, function = 5, string_table = 6,
                   period_type = 11, period = 12, comment = 13, default_sample_type = 14;
// ValueType
constexpr unsigned type = 1, unit = 2;
// Sample
constexpr unsigned location_id = 1, value = 2, label = 3;
// Label
constexpr unsigned key = 1, str = 2, num = 3;
// Mapping
constexpr unsigned mapping_id = 1, memory_start = 2, memory_limit = 3, file_offset = 4, filename = 5, build_id = 6,
                   has_functions = 7, has_filenames = 8, has_line_numbers = 9, has_inline_frames = 10;
// Location
constexpr unsigned location_identifier = 1, location_mapping = 2, address = 3, line = 4;
// Line
constexpr unsigned line_function = 1, line_number = 2;
// Function
constexpr unsigned function_id = 1, function_name = 2, system_name = 3, function_filename = 4;
}  // namespace field

}  // namespace

uint64_t pprof_builder::string_index(const std::string& s) {
  auto [at, inserted] = index_.emplace(s, strings_.size());
  if (inserted) strings_.push_back(s);
  return at->second;
}

std::string pprof_builder::value_type(const std::string& type, const std::string& unit) {
  protobuf_writer value;
  value.varint_field(field::type, string_index(type));
  value.varint_field(field::unit, string_index(unit));
  return value.bytes();
}

void pprof_builder::add_sample_type(const std::string& type, const std::string& unit) {
  out_.bytes_field(field::sample_type, value_type(type, unit));
}

void pprof_builder::add_comment(const std::string& text) { comments_.push_back(string_index(text)); }

void pprof_builder::add_sample(const std::vector<uint32_t>& locations, const std::vector<uint64_t>& values,
                               const std::vector<pprof_label>& labels) {
  protobuf_writer sample;
  std::vector<uint64_t> ids;
  for (uint32_t location : locations) ids.push_back(location + 1);  // ids start at 1
  sample.packed_field(field::location_id, ids);
  sample.packed_field(field::value, values);
  for (const pprof_label& label : labels) {
    protobuf_writer entry;
    entry.varint_field(field::key, string_index(label.key));
    if (!label.str.empty()) entry.varint_field(field::str, string_index(label.str));
    else entry.varint_field(field::num, label.num);
    sample.bytes_field(field::label, entry.bytes());
  }
  out_.bytes_field(field::sample, sample.bytes());
}

std::string pprof_builder::finish(const std::vector<loaded_module>& modules,
                                  const std::vector<profile_location>& locations, const std::string& period_type,
                                  const std::string& period_unit, uint64_t period,
                                  const std::string& default_sample_type) {
  for (size_t i = 0; i < modules.size(); ++i) {
    const loaded_module& module = modules[i];
    protobuf_writer mapping;
    mapping.varint_field(field::mapping_id, i + 1);
    mapping.varint_field(field::memory_start, module.start);
    mapping.varint_field(field::memory_limit, module.limit);
    mapping.varint_field(field::file_offset, module.file_offset);
    mapping.varint_field(field::filename, string_index(module.path));
    mapping.varint_field(field::build_id, string_index(module.build_id));
    for (unsigned flag :
         {field::has_functions, field::has_filenames, field::has_line_numbers, field::has_inline_frames})
      mapping.varint_field(flag, 1);
    out_.bytes_field(field::mapping, mapping.bytes());
  }

  // One function per (name, file); each location's lines refer to them.
  std::map<std::pair<std::string, std::string>, uint64_t> function_ids;
  for (size_t i = 0; i < locations.size(); ++i) {
    const profile_location& location = locations[i];
    protobuf_writer entry;
    entry.varint_field(field::location_identifier, i + 1);
    if (location.module >= 0) entry.varint_field(field::location_mapping, static_cast<uint64_t>(location.module) + 1);
    entry.varint_field(field::address, location.address);
    for (const source_frame& frame : location.frames) {
      auto [at, inserted] = function_ids.emplace(std::make_pair(frame.function, frame.file), function_ids.size() + 1);
      protobuf_writer line;
      line.varint_field(field::line_function, at->second);
      line.varint_field(field::line_number, frame.line);
      entry.bytes_field(field::line, line.bytes());
    }
    out_.bytes_field(field::location, entry.bytes());
  }
  for (const auto& [key, id] : function_ids) {
    protobuf_writer function;
    function.varint_field(field::function_id, id);
    function.varint_field(field::function_name, string_index(key.first));
    function.varint_field(field::system_name, string_index(key.first));
    function.varint_field(field::function_filename, string_index(key.second));
    out_.bytes_field(field::function, function.bytes());
  }

  out_.bytes_field(field::period_type, value_type(period_type, period_unit));
  out_.varint_field(field::period, period);
  out_.packed_field(field::comment, comments_);
  if (!default_sample_type.empty()) out_.varint_field(field::default_sample_type, string_index(default_sample_type));
  for (const std::string& s : strings_) out_.bytes_field(field::string_table, s);
  return out_.bytes();
}

}  // namespace perf::runtime
