#include "sampler/measured_function.hpp"

#include <algorithm>

namespace perf::runtime {

const source_frame* innermost_program_frame(const std::vector<source_frame>& frames) {
  for (const source_frame& frame : frames)
    if (frame.owner == code_owner::program) return &frame;
  return nullptr;
}

void add_measured_site(measured_function_sites& index, uint32_t id, const std::vector<source_frame>& frames) {
  if (const source_frame* frame = innermost_program_frame(frames)) index[{frame->function, frame->file}].push_back(id);
}

uint32_t charged_site(const measured_function_sites& index, uint32_t recorded, const source_frame* sampled) {
  if (sampled == nullptr) return recorded;
  const auto found = index.find({sampled->function, sampled->file});
  if (found == index.end()) return recorded;
  const std::vector<uint32_t>& sites = found->second;
  return std::find(sites.begin(), sites.end(), recorded) != sites.end() ? recorded : sites.front();
}

}  // namespace perf::runtime
