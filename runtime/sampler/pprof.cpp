// pprof's profile.proto (github.com/google/pprof, proto/profile.proto), written by
// hand: the schema is fixed and small. Field numbers are the schema's.
#include <zlib.h>

#include <map>
#include <stdexcept>

#include "sampler/profile_formats.hpp"
#include "sampler/protobuf_writer.hpp"

namespace perf::runtime {
namespace {

namespace field {
// Profile
constexpr unsigned sample_type = 1, sample = 2, mapping = 3, location = 4, function = 5, string_table = 6,
                   period_type = 11, period = 12;
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

// The string table: index 0 is the empty string, as the format requires.
class string_table {
 public:
  uint64_t operator()(const std::string& s) {
    auto [at, inserted] = index_.emplace(s, strings_.size());
    if (inserted) strings_.push_back(s);
    return at->second;
  }
  const std::vector<std::string>& strings() const { return strings_; }

 private:
  std::map<std::string, uint64_t> index_{{"", 0}};
  std::vector<std::string> strings_{""};
};

std::string value_type(string_table& strings, const std::string& type, const std::string& unit) {
  protobuf_writer out;
  out.varint_field(field::type, strings(type));
  out.varint_field(field::unit, strings(unit));
  return out.bytes();
}

}  // namespace

std::string encode_pprof(const profile& p, const std::map<long, std::string>& thread_names) {
  string_table strings;
  protobuf_writer out;
  const std::string time_type = clock_name(p.clock);
  const uint64_t period_ns = p.hz != 0 ? 1000000000u / p.hz : 0;
  out.bytes_field(field::sample_type, value_type(strings, "samples", "count"));
  out.bytes_field(field::sample_type, value_type(strings, time_type, "nanoseconds"));

  for (const profile_stack& stack : p.stacks) {
    protobuf_writer sample;
    std::vector<uint64_t> ids;
    for (uint32_t location : stack.locations) ids.push_back(location + 1);  // ids start at 1; leaf first
    sample.packed_field(field::location_id, ids);
    sample.packed_field(field::value, std::vector<uint64_t>{stack.count, stack.count * period_ns});
    protobuf_writer thread;
    thread.varint_field(field::key, strings("thread"));
    thread.varint_field(field::num, stack.tid);
    sample.bytes_field(field::label, thread.bytes());
    if (const auto name = thread_names.find(stack.tid); name != thread_names.end() && !name->second.empty()) {
      protobuf_writer named;
      named.varint_field(field::key, strings("thread_name"));
      named.varint_field(field::str, strings(name->second));
      sample.bytes_field(field::label, named.bytes());
    }
    out.bytes_field(field::sample, sample.bytes());
  }

  for (size_t i = 0; i < p.modules.size(); ++i) {
    const loaded_module& module = p.modules[i];
    protobuf_writer mapping;
    mapping.varint_field(field::mapping_id, i + 1);
    mapping.varint_field(field::memory_start, module.start);
    mapping.varint_field(field::memory_limit, module.limit);
    mapping.varint_field(field::file_offset, module.file_offset);
    mapping.varint_field(field::filename, strings(module.path));
    mapping.varint_field(field::build_id, strings(module.build_id));
    for (unsigned flag :
         {field::has_functions, field::has_filenames, field::has_line_numbers, field::has_inline_frames})
      mapping.varint_field(flag, 1);
    out.bytes_field(field::mapping, mapping.bytes());
  }

  // One function per (name, file); each location's lines refer to them.
  std::map<std::pair<std::string, std::string>, uint64_t> function_ids;
  for (size_t i = 0; i < p.locations.size(); ++i) {
    const profile_location& location = p.locations[i];
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
    out.bytes_field(field::location, entry.bytes());
  }
  for (const auto& [key, id] : function_ids) {
    protobuf_writer function;
    function.varint_field(field::function_id, id);
    function.varint_field(field::function_name, strings(key.first));
    function.varint_field(field::system_name, strings(key.first));
    function.varint_field(field::function_filename, strings(key.second));
    out.bytes_field(field::function, function.bytes());
  }

  out.bytes_field(field::period_type, value_type(strings, time_type, "nanoseconds"));
  out.varint_field(field::period, period_ns);
  for (const std::string& s : strings.strings()) out.bytes_field(field::string_table, s);
  return out.bytes();
}

std::string gzip(const std::string& data) {
  z_stream stream{};
  // 16 + 15 window bits: a gzip header and trailer around the deflate stream.
  if (deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + 15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("zlib cannot start compressing");
  std::string out(deflateBound(&stream, data.size()), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int status = deflate(&stream, Z_FINISH);
  deflateEnd(&stream);
  if (status != Z_STREAM_END) throw std::runtime_error("zlib could not compress the profile");
  out.resize(stream.total_out);
  return out;
}

}  // namespace perf::runtime
