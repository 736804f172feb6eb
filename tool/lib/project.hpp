// The project: the directory whose files the rewriter may edit. Nothing outside it
// (system headers, third-party code elsewhere) is ever touched.
#ifndef PERF_TOOL_PROJECT_HPP
#define PERF_TOOL_PROJECT_HPP

#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace perf::tool {

struct project {
  std::string root;                   // a real, absolute directory
  std::vector<std::string> excluded;  // real directories under `root` that are not part of it (a build tree)
  bool contains(const std::string& real_path) const;
};

// The project of a run, the first of:
// - `explicit_root` (--root), when given;
// - the source directory CMake records in BUILD_DIR/CMakeCache.txt, so that headers
//   beside the sources (include/ next to src/) belong to it;
// - the deepest directory holding every file of the database.
// An error when that is the file system's root: the files have nothing in common.
llvm::Expected<project> find_project(const std::string& explicit_root, const std::string& build_dir,
                                     const std::vector<std::string>& database_files);

}  // namespace perf::tool

#endif  // PERF_TOOL_PROJECT_HPP
