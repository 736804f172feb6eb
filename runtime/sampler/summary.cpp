// The public side of the sampler: the summary the report shows, and write_profile.
#include <algorithm>
#include <map>
#include <tuple>

#include "core/output_file.hpp"
#include "core/sites.hpp"
#include "core/snapshot_parts.hpp"
#include "core/startup.hpp"
#include "core/thread_name.hpp"
#include "core/warnings.hpp"
#include "perf/sampler.hpp"
#include "report_format/share_interval.hpp"
#include "sampler/profile.hpp"
#include "sampler/profile_formats.hpp"
#include "sampler/sampler.hpp"

namespace perf {
namespace {

using location_key = std::tuple<std::string, std::string, unsigned>;  // function, file, line

void set_interval(sampled_location& location, double observations) {
  const report_format::share_interval interval = report_format::wilson_interval(location.share, observations);
  location.share_low = interval.low;
  location.share_high = interval.high;
}

// The `top` largest counts of `counts`, with their share of `total` and its
// interval: `total` samples came from `interrupts` independent signals.
std::vector<sampled_location> top_of(const std::map<location_key, uint64_t>& counts, uint64_t total, double interrupts,
                                     unsigned top) {
  std::vector<sampled_location> out;
  for (const auto& [key, samples] : counts) {
    out.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), samples,
                   total != 0 ? static_cast<double>(samples) / static_cast<double>(total) : 0.0});
    set_interval(out.back(), interrupts);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const sampled_location& a, const sampled_location& b) { return a.samples > b.samples; });
  if (out.size() > top) out.resize(top);
  return out;
}

runtime::profile current_profile() {
  const runtime::sampling_pause paused;
  const runtime::sample_table* table = runtime::sampled_stacks();
  return collect_profile(*table, runtime::sampling_hz(), runtime::current_sample_config().clock);
}

// The interrupts behind `samples` of `total`, assuming one interrupt counts as many
// samples in every part of the profile.
double interrupts_behind(uint64_t samples, uint64_t total, uint64_t interrupts) {
  if (total == 0) return 0;
  return static_cast<double>(std::min(interrupts, total)) * static_cast<double>(samples) / static_cast<double>(total);
}

}  // namespace

sample_summary take_sample_summary(unsigned top) {
  sample_summary summary;
  if (runtime::sampled_stacks() == nullptr) return summary;
  const uint64_t interrupts = runtime::sampled_stacks()->interrupts();  // before the profile: not more than it holds
  const runtime::profile p = current_profile();
  summary.hz = p.hz;
  summary.clock = runtime::clock_name(p.clock);
  summary.source = runtime::source_name(runtime::sampling_source());
  summary.total = p.total;
  summary.interrupts = std::min(interrupts, p.total);
  summary.dropped = p.dropped;
  summary.stopped = runtime::why_sampling_stopped();
  runtime::unsampled_threads unsampled = runtime::threads_not_sampled();
  summary.unsampled_threads = unsampled.threads;
  summary.unsampled_why = std::move(unsampled.why);
  std::map<location_key, uint64_t> functions, lines;
  std::map<uint32_t, std::map<location_key, uint64_t>> thread_functions;
  std::map<uint32_t, uint64_t> thread_samples, site_samples;
  for (const runtime::profile_stack& stack : p.stacks) {
    const runtime::source_frame& frame = most_interesting_frame(p, stack);
    functions[{frame.function, frame.file, 0}] += stack.count;
    lines[{frame.function, frame.file, frame.line}] += stack.count;
    thread_functions[stack.tid][{frame.function, frame.file, 0}] += stack.count;
    thread_samples[stack.tid] += stack.count;
    if (taken_in_runtime(p, stack)) summary.probe_samples += stack.count;
    if (stack.site != 0) site_samples[stack.site] += stack.count;
  }
  const double all_interrupts = static_cast<double>(summary.interrupts);
  summary.top_functions = top_of(functions, p.total, all_interrupts, top);
  summary.top_lines = top_of(lines, p.total, all_interrupts, top);
  for (const auto& [tid, samples] : thread_samples)
    summary.threads.push_back(
        {tid, samples,
         top_of(thread_functions[tid], samples, interrupts_behind(samples, p.total, summary.interrupts), top)});
  std::stable_sort(summary.threads.begin(), summary.threads.end(),
                   [](const sampled_thread& a, const sampled_thread& b) { return a.samples > b.samples; });
  std::map<std::string, uint64_t> measured;
  for (const auto& [site, samples] : site_samples)
    if (const char* name = runtime::site_name(site)) measured[name] += samples;
  for (const auto& [name, samples] : measured)
    summary.measured.push_back(
        {name, samples, p.total != 0 ? static_cast<double>(samples) / static_cast<double>(p.total) : 0.0});
  std::stable_sort(
      summary.measured.begin(), summary.measured.end(),
      [](const sampled_measured_function& a, const sampled_measured_function& b) { return a.samples > b.samples; });
  return summary;
}

bool write_profile(const std::string& path) {
  if (runtime::sampled_stacks() == nullptr) {
    runtime::warn("cannot write the profile to '" + runtime::expand_path(path) + "': sampling is off");
    return false;
  }
  const runtime::sampling_pause paused;
  std::string bytes;
  try {
    const runtime::profile p = current_profile();
    bytes = path.ends_with(".pb.gz") ? runtime::gzip(runtime::encode_pprof(p, runtime::known_thread_names()))
                                     : runtime::format_folded(p);
  } catch (const std::exception& e) {
    runtime::warn("cannot write the profile to '" + runtime::expand_path(path) + "': " + e.what());
    return false;
  }
  return runtime::write_output("profile", path,
                               [&](int fd) { return runtime::write_all(fd, bytes.data(), bytes.size()); });
}

namespace runtime {
namespace {

// The sampler's counts, read without symbolizing anything.
sample_summary sample_counts() {
  sample_summary counts;
  const sample_table* table = sampled_stacks();
  if (table == nullptr) return counts;
  counts.hz = sampling_hz();
  counts.clock = clock_name(current_sample_config().clock);
  counts.source = source_name(sampling_source());
  counts.total = table->counted();
  counts.interrupts = table->interrupts();
  counts.dropped = table->dropped();
  counts.stopped = why_sampling_stopped();
  unsampled_threads unsampled = threads_not_sampled();
  counts.unsampled_threads = unsampled.threads;
  counts.unsampled_why = std::move(unsampled.why);
  return counts;
}

// Every snapshot, and so every report, carries the sampler's summary; /metrics
// only its counts.
PERF_RUNTIME_ON_START(register_samples_part) {
  add_snapshot_part([](snapshot& s, const thread_list&, snapshot_depth depth) {
    s.samples = depth == snapshot_depth::report ? take_sample_summary(10) : sample_counts();
  });
}

}  // namespace
}  // namespace runtime
}  // namespace perf
