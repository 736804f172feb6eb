// The rewriter's pipeline, stated once; the driver (every mode) and the launcher
// (one compiler command) both run it:
//
//   compile commands ─parse─► ASTs ─collect─► plans ─resolve─► edits ─apply─► files
//
// - parse (parallel_parse.hpp): each unit's database command, made fit for this
//   Clang (compiler_arguments.hpp), parsed `-j` units at a time;
// - collect (collector.hpp): the selected functions (selection.hpp) of each AST,
//   each planned by the rules of planner.hpp into a planned_function;
// - resolve (plan/edit_set.hpp): every unit's plans become one decision per body, the
//   same whatever the order of the units: resolved_edits;
// - apply: the edits made to the sources (changes.hpp: in place, --diff), or to
//   a copy of them beside the build (mirror.hpp: -o DIR, --launch).
//
// Paths are made real where they enter (the command line, the database, a compiler
// command, Clang's file entries); past that, every path is real.
#ifndef PERF_TOOL_REWRITE_HPP
#define PERF_TOOL_REWRITE_HPP

#include <llvm/Support/Error.h>

#include <string>
#include <vector>

#include "lib/collect/selection.hpp"
#include "lib/parse/compiler_arguments.hpp"
#include "lib/plan/rewrite_plan.hpp"
#include "lib/project.hpp"

namespace clang::tooling {
class CompilationDatabase;
}  // namespace clang::tooling

namespace perf::tool {

// Parses `units` (as `database` names them) `jobs` at a time, collects the functions
// `chosen` selects in `editable` and resolves them. An error when a unit did not
// parse; its diagnostics are printed.
llvm::Expected<rewrite_plan> rewrite(const clang::tooling::CompilationDatabase& database,
                                     const std::vector<std::string>& units, const extra_arguments& extra, unsigned jobs,
                                     const selection& chosen, const project& editable);

}  // namespace perf::tool

#endif  // PERF_TOOL_REWRITE_HPP
