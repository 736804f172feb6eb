// What parse, collect and resolve make of a run's units (lib/rewrite.hpp), and what
// apply and the launcher's plan cache take: the resolved edits and the files read.
#ifndef PERF_TOOL_REWRITE_PLAN_HPP
#define PERF_TOOL_REWRITE_PLAN_HPP

#include <set>
#include <string>

#include "lib/plan/edit_set.hpp"

namespace perf::tool {

struct rewrite_plan {
  resolved_edits edits;
  std::set<std::string> files_read;  // the project's files the units read (real paths)
  // Those of files_read that some unit included (read other than as its main file). For
  // -o DIR only: plan_cache does not keep it.
  std::set<std::string> files_included;
  std::set<std::string> inputs;  // every file the units read, the project's and others (real paths)
};

}  // namespace perf::tool

#endif  // PERF_TOOL_REWRITE_PLAN_HPP
