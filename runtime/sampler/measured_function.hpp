// Which measured function a sample was taken in. The signal handler records the
// thread's innermost open timed activation (thread_state::site), but an untimed call
// of an adaptive leaf (untimed_call in perf/detail/thread_state.hpp) opens none: a
// sample taken inside it would go to its caller's site. So each site's measured
// function is found by symbolizing the address register_site recorded in it
// (core/sites.hpp, site_code), and a sample whose innermost frame of the program's
// own code is in a measured function is charged to that function's site.
#ifndef PERF_RUNTIME_SAMPLER_MEASURED_FUNCTION_HPP
#define PERF_RUNTIME_SAMPLER_MEASURED_FUNCTION_HPP

#include <stdint.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sampler/profile.hpp"

namespace perf::runtime {

// The innermost frame of the program's own code among `frames` (a location's,
// innermost first: inlined functions included), or null.
const source_frame* innermost_program_frame(const std::vector<source_frame>& frames);

// The registered sites by the function they measure: (function, file) as the
// innermost program frame at the site's code address names it, the same name a
// sample's frame in that function gets (an inlined measured function too, where the
// symbolizer reports inline frames, as libbacktrace does from DWARF). Ids ascending.
using measured_function_sites = std::map<std::pair<std::string, std::string>, std::vector<uint32_t>>;

// Adds to `index` the site `id`, whose code address symbolized to `frames`.
void add_measured_site(measured_function_sites& index, uint32_t id, const std::vector<source_frame>& frames);

// The site a sample is charged to: `recorded` (the innermost open timed activation's
// site, 0: none), unless the sample's innermost program frame `sampled` (null: none)
// lies in a measured function none of whose sites is `recorded`: then that function's
// first registered site (several sites share a function where a function has scopes
// in sequence; the recorded one is kept where it is among them, a nested scope's).
uint32_t charged_site(const measured_function_sites& index, uint32_t recorded, const source_frame* sampled);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_SAMPLER_MEASURED_FUNCTION_HPP
