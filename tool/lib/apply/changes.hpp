// The files a run changes, for --in-place, --diff and --revert: computed whole
// before anything is written, then written all or not at all.
#ifndef PERF_TOOL_CHANGES_HPP
#define PERF_TOOL_CHANGES_HPP

#include <llvm/Support/Error.h>

#include <map>
#include <string>

#include "lib/plan/edit_set.hpp"
#include "lib/project.hpp"

namespace perf::tool {

struct file_change {
  std::string before, after;
};

// By real path; only files whose text changes.
using change_set = std::map<std::string, file_change>;

// What `edits` make of the files as they are now.
llvm::Expected<change_set> instrumentation_changes(const resolved_edits& edits);

// What --revert makes: every regular file under the project's root that starts with
// the rewriter's prefix, without anything the rewriter inserted. Symbolic links are
// not followed (a target in the project is found where it is).
change_set revert_changes(const project& editable);

// Writes every change (each atomically), or none when any of the files is
// read-only or cannot be replaced.
llvm::Error write_changes(const change_set& changes);

}  // namespace perf::tool

#endif  // PERF_TOOL_CHANGES_HPP
