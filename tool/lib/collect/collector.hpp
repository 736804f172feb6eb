// Parsing one translation unit and adding what it contributes to the edit set.
#ifndef PERF_TOOL_COLLECTOR_HPP
#define PERF_TOOL_COLLECTOR_HPP

#include <clang/Tooling/Tooling.h>

#include <memory>

#include "lib/collect/selection.hpp"
#include "lib/plan/edit_set.hpp"
#include "lib/project.hpp"

namespace perf::tool {

// A factory for the frontend action that visits every function definition of a
// translation unit once (template patterns, not instantiations; lambdas through
// their call operators), plans the selected ones and adds the plans to `edits`.
// Selected functions outside `editable` are reported as skipped, never edited.
// Misuse of the annotate spelling is an error of the unit. The factory may be
// shared by threads parsing units in parallel.
std::unique_ptr<clang::tooling::FrontendActionFactory> make_collector(const selection& chosen, const project& editable,
                                                                      edit_set& edits);

}  // namespace perf::tool

#endif  // PERF_TOOL_COLLECTOR_HPP
