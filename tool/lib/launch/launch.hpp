// --launch: perf-instrument as a compiler launcher, the way CMake runs ccache. The
// unit a compiler command compiles is instrumented into a mirror, the command is
// run on the mirror, and its dependency file is made to name the original files,
// so the build system tracks the sources and an unchanged build stays a no-op.
#ifndef PERF_TOOL_LAUNCH_HPP
#define PERF_TOOL_LAUNCH_HPP

#include <string>
#include <vector>

#include "lib/collect/selection.hpp"
#include "lib/project.hpp"

namespace perf::tool {

struct launch_options {
  project editable;                    // what may be instrumented (never the build tree)
  std::string mirror_dir;              // where the instrumented copies go, a tree per plan
  std::vector<std::string> launchers;  // run in front of the compiler, e.g. ccache
  std::vector<std::string> command;    // the compiler and its arguments
  std::string plans_dir;               // where the plans are kept between builds (plan_cache.hpp)
  // Everything besides the files read that shapes a unit's plan: the launcher's own
  // command line and the project's system directories.
  std::string configuration;
  bool verbose = false;  // say per unit whether it was parsed; list what the size threshold left out
};

// Runs `options.command` (behind `options.launchers`) on the mirror of its unit,
// instrumented as `chosen` says, and returns the compiler's exit status. A command that compiles no
// C++ unit of the project (a link, a C file), whose unit cannot hold a selected
// function (no --filter, and the attribute spelled nowhere it reads: marked_text.hpp),
// or whose unit the rewriter cannot parse (with a warning), runs as it is. A unit
// whose plan is kept (plan_cache.hpp) is not parsed again.
int launch(const launch_options& options, const selection& chosen);

// `depfile_text` with every path under `mirror_dir` replaced by the same path
// under `root`.
std::string unmirrored_dependencies(const std::string& depfile_text, const std::string& mirror_dir,
                                    const std::string& root);

}  // namespace perf::tool

#endif  // PERF_TOOL_LAUNCH_HPP
