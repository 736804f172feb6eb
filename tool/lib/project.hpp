// The project: the directory whose files the rewriter may edit. Nothing outside it
// (system headers, third-party code elsewhere) is ever touched.
#ifndef PERF_TOOL_PROJECT_HPP
#define PERF_TOOL_PROJECT_HPP

#include <llvm/Support/Error.h>

#include <string>
#include <vector>

namespace clang::tooling {
class CompilationDatabase;
}  // namespace clang::tooling

namespace perf::tool {

struct project {
  std::string root;                   // a real, absolute directory
  std::vector<std::string> excluded;  // real directories under `root` that are not part of it (a build tree)
  // Real directories some command of the build searches for system headers: a file
  // under one is a system header for every unit, never edited.
  std::vector<std::string> system_directories;
  bool contains(const std::string& real_path) const;
  bool in_system_directory(const std::string& real_path) const;
  // Whether the rewriter may edit the file at `real_path`: one the project contains,
  // in none of its system directories, and not read as a system header
  // (`system_header`: the compiler's own verdict, a `#pragma GCC system_header` say).
  bool edits(const std::string& real_path, bool system_header = false) const;
};

// The directories `database`'s commands name with -isystem or -idirafter (system
// header directories for GCC and Clang), as real paths.
std::vector<std::string> system_directories(const clang::tooling::CompilationDatabase& database);

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
