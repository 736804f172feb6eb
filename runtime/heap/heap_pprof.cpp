#include "heap/heap_pprof.hpp"

#include <vector>

#include <fmt/format.h>

#include "report_format/text_format.hpp"
#include "sampler/pprof_builder.hpp"
#include "sampler/profile.hpp"

namespace perf::runtime {

std::string encode_heap_pprof(const heap_profile& p, heap_pprof_view view) {
  std::vector<std::vector<uintptr_t>> stacks;
  for (const heap_site& site : p.sites) stacks.push_back(site.frames);
  const symbolized_stacks symbolized = symbolize_return_address_stacks(stacks);

  pprof_builder out;
  // What the sampler's bounded tables left out, said where pprof shows it: above -top.
  if (p.samples_beyond_sites != 0)
    out.add_comment(fmt::format("perf: {} {} in no sample: the site table was full",
                                report_format::format_count_of(p.samples_beyond_sites, "sampled allocation"),
                                p.samples_beyond_sites == 1 ? "is" : "are"));
  if (p.live_set_thinnings != 0)
    out.add_comment(fmt::format("perf: inuse_* estimated from 1 in {} sampled blocks still live: the live set was full",
                                uint64_t{1} << p.live_set_thinnings));
  out.add_sample_type("alloc_objects", "count");
  out.add_sample_type("alloc_space", "bytes");
  out.add_sample_type("inuse_objects", "count");
  out.add_sample_type("inuse_space", "bytes");
  for (size_t i = 0; i < p.sites.size(); ++i) {
    const heap_site& site = p.sites[i];
    std::vector<pprof_label> labels;
    if (site.allocated_objects > 0)
      labels.push_back({"bytes", "", whole_count(site.allocated_bytes / site.allocated_objects)});
    out.add_sample(symbolized.stacks[i],
                   {whole_count(site.allocated_objects), whole_count(site.allocated_bytes),
                    whole_count(site.live_objects), whole_count(site.live_bytes)},
                   labels);
  }
  return out.finish(symbolized.modules, symbolized.locations, "space", "bytes", p.sample_bytes,
                    view == heap_pprof_view::heap ? "inuse_space" : "alloc_space");
}

}  // namespace perf::runtime
