// pprof's profile.proto (github.com/google/pprof, proto/profile.proto) built part by
// part: what every pprof profile the runtime writes shares (the CPU profile,
// sampler/pprof.cpp, and the heap profile, heap/heap_pprof.cpp). The string table,
// the sample types, samples and their labels, and the mappings, locations and
// functions of symbolized addresses are written here once.
#ifndef PERF_RUNTIME_SAMPLER_PPROF_BUILDER_HPP
#define PERF_RUNTIME_SAMPLER_PPROF_BUILDER_HPP

#include <stdint.h>

#include <map>
#include <string>
#include <vector>

#include "report_format/protobuf_writer.hpp"
#include "sampler/modules.hpp"
#include "sampler/profile.hpp"

namespace perf::runtime {

// A sample's label: a string when `str` is not empty, else the number `num`.
struct pprof_label {
  std::string key;
  std::string str;
  uint64_t num = 0;
};

// One Profile message, written in the order pprof's own writers use: the sample types,
// then the samples, then finish() adds the mappings, locations, functions, period and
// string table. One thread at a time; one builder per message.
class pprof_builder {
 public:
  void add_sample_type(const std::string& type, const std::string& unit);

  // A free-form line of the profile, which pprof prints above its reports.
  void add_comment(const std::string& text);

  // `locations` index the `locations` given to finish(), innermost first; `values`
  // has one value per sample type, in their order.
  void add_sample(const std::vector<uint32_t>& locations, const std::vector<uint64_t>& values,
                  const std::vector<pprof_label>& labels = {});

  // The message: a mapping per module, a location per address (its inlined lines,
  // innermost first, each naming a function, one per distinct name and file), the
  // period, and `default_sample_type` (the sample type pprof shows unless told
  // otherwise; empty: the last one, pprof's default, and no field written), and the
  // comments.
  std::string finish(const std::vector<loaded_module>& modules, const std::vector<profile_location>& locations,
                     const std::string& period_type, const std::string& period_unit, uint64_t period,
                     const std::string& default_sample_type = "");

 private:
  // A string's index in the string table, added if new (index 0 is the empty string,
  // as the format requires).
  uint64_t string_index(const std::string& s);
  std::string value_type(const std::string& type, const std::string& unit);

  protobuf_writer out_;
  std::vector<uint64_t> comments_;  // string indexes
  std::map<std::string, uint64_t> index_{{"", 0}};
  std::vector<std::string> strings_{""};
};

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_SAMPLER_PPROF_BUILDER_HPP
