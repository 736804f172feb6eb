// Parsing one translation unit and adding what it contributes to the edit set.
#ifndef PERF_TOOL_COLLECTOR_HPP
#define PERF_TOOL_COLLECTOR_HPP

#include <clang/Tooling/Tooling.h>

#include <memory>
#include <string>

#include "edit_set.hpp"
#include "selection.hpp"

namespace perf::tool {

// Files under `root` (a real, absolute directory) are the project's; nothing else
// is ever edited.
struct project {
  std::string root;
  bool contains(const std::string& real_path) const;
};

// A factory for the frontend action that visits every function definition of a
// translation unit once (template patterns, not instantiations; lambdas through
// their call operators) and records the selected ones in `edits`.
std::unique_ptr<clang::tooling::FrontendActionFactory> make_collector(const selection& chosen,
                                                                      const project& where, edit_set& edits);

}  // namespace perf::tool

#endif  // PERF_TOOL_COLLECTOR_HPP
