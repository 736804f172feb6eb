// --launch: perf-instrument as a compiler launcher, the way CMake runs ccache. The
// unit a compiler command compiles is instrumented into a mirror, the command is
// run on the mirror, and its dependency file is made to name the original files,
// so the build system tracks the sources and an unchanged build stays a no-op.
#ifndef PERF_TOOL_LAUNCH_HPP
#define PERF_TOOL_LAUNCH_HPP

#include <string>
#include <vector>

#include "project.hpp"
#include "selection.hpp"

namespace perf::tool {

struct launch_options {
  project editable;                    // what may be instrumented (never the build tree)
  std::string mirror_dir;              // where the instrumented copies go, a tree per plan
  std::vector<std::string> launchers;  // run in front of the compiler, e.g. ccache
  std::vector<std::string> command;    // the compiler and its arguments
};

// Runs `options.command` (behind `options.launchers`) on the mirror of its unit,
// instrumented as `chosen` says, and returns the compiler's exit status. A command that compiles no
// C++ unit of the project (a link, a C file), or whose unit the rewriter cannot
// parse (with a warning), runs as it is.
int launch(const launch_options& options, const selection& chosen);

// `depfile_text` with every path under `mirror_dir` replaced by the same path
// under `root`.
std::string unmirrored_dependencies(const std::string& depfile_text, const std::string& mirror_dir,
                                    const std::string& root);

}  // namespace perf::tool

#endif  // PERF_TOOL_LAUNCH_HPP
