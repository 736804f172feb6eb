// -o DIR: an instrumented copy of the project's sources beside the originals, and a
// compilation database that builds it.
#ifndef PERF_TOOL_MIRROR_HPP
#define PERF_TOOL_MIRROR_HPP

#include <llvm/Support/Error.h>

#include <set>
#include <string>
#include <vector>

#include "edit_set.hpp"
#include "project.hpp"

namespace clang::tooling {
class CompilationDatabase;
}  // namespace clang::tooling

namespace perf::tool {

// Writes under `output_dir` (outside the project) every project file a unit read,
// at its path relative to the project's root, instrumented as `edits` say; then
// `output_dir/compile_commands.json` with an entry per command of `units` (as the
// database names them), in which
// the unit's file, if in the project, is its mirror; every include directory in
// the project is searched in the mirror first and then where it is (instrumented
// headers are found before the originals, the others still resolve); files given
// to -include and -imacros are their mirrors; the perf headers are added. Nothing
// is written outside `output_dir`: a unit outside the project keeps its path.
llvm::Error write_mirror(const std::string& output_dir, const project& where, const resolved_edits& edits,
                         const std::set<std::string>& files_read, const clang::tooling::CompilationDatabase& database,
                         const std::vector<std::string>& units);

}  // namespace perf::tool

#endif  // PERF_TOOL_MIRROR_HPP
