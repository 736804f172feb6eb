// Parsing the translation units of a run, several at a time.
#ifndef PERF_TOOL_PARALLEL_PARSE_HPP
#define PERF_TOOL_PARALLEL_PARSE_HPP

#include <string>
#include <vector>

#include "lib/parse/compiler_arguments.hpp"

namespace clang::tooling {
class CompilationDatabase;
class FrontendActionFactory;
}  // namespace clang::tooling

namespace perf::tool {

// Runs `action` on every command the database has for each of `files`, `jobs` units
// at a time (each thread takes the next unit when it is done with one). Each unit
// has a file system of its own (its working directory is its command's), and its
// diagnostics are printed whole, in the order of `files`, whatever `jobs` is.
// Returns the number of units that failed to parse.
unsigned parse_in_parallel(const clang::tooling::CompilationDatabase& database, const std::vector<std::string>& files,
                           const extra_arguments& extra, unsigned jobs, clang::tooling::FrontendActionFactory& action);

}  // namespace perf::tool

#endif  // PERF_TOOL_PARALLEL_PARSE_HPP
