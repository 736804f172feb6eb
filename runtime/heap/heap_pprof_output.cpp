#include "heap/heap_pprof_output.hpp"

#include <stdexcept>

#include "core/output_file.hpp"
#include "core/settled_config.hpp"
#include "core/startup.hpp"
#include "core/warnings.hpp"
#include "heap/heap_pprof.hpp"
#include "heap/heap_profile.hpp"
#include "sampler/profile_formats.hpp"

namespace perf::runtime {
namespace {

const heap_pprof_output_config& current_heap_pprof_output_config() {
  return settled_config<heap_pprof_output_config, parse_heap_pprof_output_config>();
}

void write_heap_profile_at_exit() { write_heap_profile(current_heap_pprof_output_config().path); }

PERF_RUNTIME_ON_START(register_heap_profile_output) {
  if (!current_heap_pprof_output_config().path.empty()) add_exit_output(write_heap_profile_at_exit);
}

}  // namespace

heap_pprof_output_config parse_heap_pprof_output_config(const std::function<const char*(const char*)>& getenv_fn) {
  heap_pprof_output_config result;
  if (const char* path = getenv_fn("PERF_HEAP_PROFILE")) result.path = path;
  return result;
}

bool write_heap_profile(const std::string& path) {
  std::string bytes;
  try {
    const heap_profile p = heap_profile_snapshot();
    if (p.sample_bytes == 0) {
      warn("cannot write the heap profile to '" + expand_path(path) + "': " + heap_sampling_off);
      return false;
    }
    bytes = gzip(encode_heap_pprof(p, heap_pprof_view::heap));
  } catch (const std::exception& e) {
    warn("cannot write the heap profile to '" + expand_path(path) + "': " + e.what());
    return false;
  }
  return write_output("heap profile", path, [&](int fd) { return write_all(fd, bytes.data(), bytes.size()); });
}

}  // namespace perf::runtime
