// The command line a database entry is parsed with: the build's own, made to work
// with the Clang the tool is built on.
#ifndef PERF_TOOL_COMPILER_ARGUMENTS_HPP
#define PERF_TOOL_COMPILER_ARGUMENTS_HPP

#include <string>
#include <vector>

namespace clang::tooling {
struct CompileCommand;
}  // namespace clang::tooling

namespace perf::tool {

struct extra_arguments {
  std::vector<std::string> before;  // --extra-arg-before: right after the compiler
  std::vector<std::string> after;   // --extra-arg: at the end, so they win
};

// `command`'s arguments for parsing only: without GCC-only flags this Clang does not
// know, with `-std=` values GCC knows under a newer name spelled as this Clang knows
// them (c++23 for Clang before 17 is c++2b), without outputs and dependency files;
// with this Clang's resource directory (stddef.h and friends), the perf headers
// (for files an earlier run instrumented), no warnings (the build's business), and
// `extra` around them.
std::vector<std::string> parsing_arguments(const clang::tooling::CompileCommand& command, const extra_arguments& extra);

}  // namespace perf::tool

#endif  // PERF_TOOL_COMPILER_ARGUMENTS_HPP
