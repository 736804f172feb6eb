// The launcher's plans kept between builds, one per compiler command: a unit whose
// command, launcher options, tool and files are what they were when it was parsed
// is not parsed again (a rebuild after `touch`, a `clean`, a header saved unchanged).
#ifndef PERF_TOOL_PLAN_CACHE_HPP
#define PERF_TOOL_PLAN_CACHE_HPP

#include <optional>
#include <string>

#include "lib/plan/rewrite_plan.hpp"

namespace perf::tool {

class plan_cache {
 public:
  // The entry under `directory` for `configuration`: everything besides the files
  // read that shapes a plan (the launcher's whole command line, its working
  // directory, the project and its system directories); the tool's own binary is
  // added to it.
  plan_cache(const std::string& directory, const std::string& configuration);

  // The plan stored for this configuration, if every file it read is as it was: a
  // project file has the same text, any other file (a system header) the same size
  // and modification time. nullopt otherwise, or when there is none.
  std::optional<rewrite_plan> load() const;

  // Stores `plan` (made for this configuration). A cache: a failure to write is not
  // an error, the next build parses again.
  void store(const rewrite_plan& plan) const;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace perf::tool

#endif  // PERF_TOOL_PLAN_CACHE_HPP
