// The heap sampler's section of the report (PERF_HEAP_SAMPLE): the top allocation
// sites by bytes allocated and by live bytes, each with its estimates and its
// innermost program frames, as a gtest budget's stack shows them (program_frame_lines). JSON
// "allocation_sites": every site, by bytes allocated. Nothing while sampling is off.
#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "core/report_sections.hpp"
#include "core/startup.hpp"
#include "heap/heap_profile.hpp"
#include "report_format/escaping.hpp"
#include "report_format/text_format.hpp"
#include "sampler/allocation_function.hpp"

namespace perf::runtime {

using report_format::format_count;
using report_format::format_count_of;
using report_format::json_string;

namespace {

constexpr size_t sites_shown = 10;  // per list of the text section
constexpr size_t frames_shown = 4;  // lines of each site's stack in the text section

std::vector<const heap_site*> by(const heap_profile& profile, double heap_site::*figure) {
  std::vector<const heap_site*> order;
  for (const heap_site& site : profile.sites)
    if (whole_count(site.*figure) != 0) order.push_back(&site);
  std::stable_sort(order.begin(), order.end(),
                   [&](const heap_site* a, const heap_site* b) { return a->*figure > b->*figure; });
  return order;
}

std::string site_lines(const heap_site& site) {
  std::string out = fmt::format(
      "    {} in {} ({} sampled); live: {} in {}\n", format_count_of(whole_count(site.allocated_bytes), "byte"),
      format_count_of(whole_count(site.allocated_objects), "allocation"), format_count(site.samples),
      format_count_of(whole_count(site.live_bytes), "byte"), format_count_of(whole_count(site.live_objects), "block"));
  const std::vector<std::string> lines =
      program_frame_lines(site.frames.data(), static_cast<unsigned>(site.frames.size()));
  for (size_t i = 0; i < lines.size() && i < frames_shown; ++i) out += "      " + lines[i] + "\n";
  if (lines.empty()) out += "      (no frame of the program's)\n";
  return out;
}

std::string allocation_sites_lines(const snapshot&) {
  const heap_profile profile = heap_profile_snapshot();
  if (profile.sample_bytes == 0) return {};
  uint64_t samples = 0;
  for (const heap_site& site : profile.sites) samples += site.samples;
  std::string out =
      fmt::format("allocation sites (PERF_HEAP_SAMPLE={}: a sample every {} on average; estimates): {} in {}\n",
                  profile.sample_bytes, format_count_of(profile.sample_bytes, "requested byte"),
                  format_count_of(samples, "sample"), format_count_of(profile.sites.size(), "site"));
  const std::vector<const heap_site*> allocated = by(profile, &heap_site::allocated_bytes);
  if (!allocated.empty()) out += "  by bytes allocated:\n";
  for (size_t i = 0; i < allocated.size() && i < sites_shown; ++i) out += site_lines(*allocated[i]);
  const std::vector<const heap_site*> live = by(profile, &heap_site::live_bytes);
  if (!live.empty()) out += "  by live bytes:\n";
  for (size_t i = 0; i < live.size() && i < sites_shown; ++i) out += site_lines(*live[i]);
  if (profile.samples_beyond_sites != 0)
    out += fmt::format("  {} found the site table full: in no site\n",
                       format_count_of(profile.samples_beyond_sites, "sample"));
  if (profile.live_set_thinnings != 0)
    out += fmt::format("  live estimates from 1 in {} sampled blocks still live: the live set was full\n",
                       format_count(uint64_t{1} << profile.live_set_thinnings));
  return out;
}

std::string allocation_sites_json(const snapshot&) {
  const heap_profile profile = heap_profile_snapshot();
  std::string out = "[";
  const std::vector<const heap_site*> order = by(profile, &heap_site::allocated_bytes);
  for (size_t i = 0; i < order.size(); ++i) {
    const heap_site& site = *order[i];
    out += fmt::format(
        "{}\n    {{\"bytes\": {}, \"allocations\": {}, \"live_bytes\": {}, \"live_blocks\": {}, \"samples\": {}, "
        "\"live_samples\": {}, \"truncated\": {}, \"stack\": [",
        i == 0 ? "" : ",", whole_count(site.allocated_bytes), whole_count(site.allocated_objects),
        whole_count(site.live_bytes), whole_count(site.live_objects), site.samples, site.live_samples, site.truncated);
    const std::vector<std::string> lines =
        program_frame_lines(site.frames.data(), static_cast<unsigned>(site.frames.size()));
    for (size_t j = 0; j < lines.size(); ++j) {
      std::string_view line = lines[j];
      if (line.substr(0, 3) == "at ") line.remove_prefix(3);
      out += (j == 0 ? "" : ", ") + json_string(line);
    }
    out += "]}";
  }
  return out + (order.empty() ? "]" : "\n  ]");
}

PERF_RUNTIME_ON_START(register_allocation_sites_section) {
  add_report_section({210, "allocation_sites", allocation_sites_json, allocation_sites_lines});
}

}  // namespace
}  // namespace perf::runtime
