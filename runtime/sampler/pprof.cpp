// The CPU profile as pprof's profile.proto (sampler/pprof_builder.hpp writes the
// format), and the gzip around it.
#include <zlib.h>

#include <map>
#include <stdexcept>

#include "sampler/pprof_builder.hpp"
#include "sampler/profile_formats.hpp"

namespace perf::runtime {

std::string encode_pprof(const profile& p, const std::map<long, std::string>& thread_names) {
  pprof_builder out;
  const std::string time_type = clock_name(p.clock);
  const uint64_t period_ns = p.hz != 0 ? 1000000000u / p.hz : 0;
  out.add_sample_type("samples", "count");
  out.add_sample_type(time_type, "nanoseconds");
  // A truncated stack's outermost frame is a location of its own, "[truncated]" (no
  // address, no module), as the folded stacks' first frame is.
  std::vector<profile_location> locations = p.locations;
  const auto truncation = static_cast<uint32_t>(locations.size());
  for (const profile_stack& stack : p.stacks) {
    std::vector<pprof_label> labels{{"thread", "", stack.tid}};
    if (const auto name = thread_names.find(stack.tid); name != thread_names.end() && !name->second.empty())
      labels.push_back({"thread_name", name->second, 0});
    std::vector<uint32_t> frames = stack.locations;
    if (stack.truncated) {
      if (locations.size() == truncation) locations.push_back({0, -1, {{"[truncated]", "", 0, code_owner::library}}});
      frames.push_back(truncation);
    }
    out.add_sample(frames, {stack.count, stack.count * period_ns}, labels);
  }
  return out.finish(p.modules, locations, time_type, "nanoseconds", period_ns);
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
