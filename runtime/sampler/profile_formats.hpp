// A profile as folded stacks (flamegraph.pl, speedscope, inferno) and as pprof's
// profile.proto (go tool pprof).
#ifndef PERF_RUNTIME_SAMPLER_PROFILE_FORMATS_HPP
#define PERF_RUNTIME_SAMPLER_PROFILE_FORMATS_HPP

#include <map>
#include <string>

#include "sampler/profile.hpp"

namespace perf::runtime {

// One line per distinct stack, "outermost;...;innermost count", inlined functions
// as frames of their own, sorted; a stack cut at the depth limit starts with
// "[truncated]". Threads are merged.
std::string format_folded(const profile& p);

// The profile.proto message, uncompressed: sample types samples/count and
// cpu/nanoseconds (wall/nanoseconds under PERF_SAMPLE_CLOCK=wall), one location per
// address with its inlined lines, mappings with build ids, a "thread" label per sample
// (the thread id) and a "thread_name" label when `thread_names` names its thread.
std::string encode_pprof(const profile& p, const std::map<long, std::string>& thread_names = {});

// `data` as a gzip file (what pprof reads). Throws std::runtime_error if zlib fails.
std::string gzip(const std::string& data);

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_SAMPLER_PROFILE_FORMATS_HPP
