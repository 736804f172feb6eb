// The modification times files had before an in-place run first edited them, so
// that --revert gives them back and a build that never compiled the instrumented
// text does not recompile. Kept in BUILD_DIR/perf-instrument/original-times.json.
#ifndef PERF_TOOL_ORIGINAL_TIMES_HPP
#define PERF_TOOL_ORIGINAL_TIMES_HPP

#include <llvm/Support/Error.h>

#include <optional>
#include <string>
#include <vector>

#include "lib/apply/changes.hpp"

namespace clang::tooling {
class CompilationDatabase;
}  // namespace clang::tooling

namespace perf::tool {

// In place: writes `changes` (write_changes) and remembers, for each file, the time
// it had before it was first instrumented and the time it has now. A file that
// already carried the prefix keeps the time remembered for it, if it was not
// touched since; otherwise its original time is unknown and it is forgotten.
llvm::Error write_instrumentation(const change_set& changes, const std::string& build_dir);

// Revert: writes `changes` (write_changes) and gives each file back the time it had
// before instrumentation, when that is known and the file was not touched since.
// Not when one of `object_files` (the build's) is as new as a file's instrumented
// text, nor without them (nullopt): a build may have compiled it, and only a new
// time makes the next build recompile it. Returns how many files got their time back.
llvm::Expected<std::size_t> write_revert(const change_set& changes, const std::string& build_dir,
                                         const std::optional<std::vector<std::string>>& object_files);

// The files the database's commands compile to (their -o), as absolute paths.
std::vector<std::string> object_files(const clang::tooling::CompilationDatabase& database);

}  // namespace perf::tool

#endif  // PERF_TOOL_ORIGINAL_TIMES_HPP
