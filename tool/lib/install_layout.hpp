// Where perf-instrument finds what is installed with it, relative to its own binary
// (<prefix>/bin/perf-instrument): the one place that knows the install layout.
#ifndef PERF_TOOL_INSTALL_LAYOUT_HPP
#define PERF_TOOL_INSTALL_LAYOUT_HPP

#include <llvm/Support/Error.h>

#include <string>

namespace perf::tool {

// The real path of the running binary.
std::string binary_path();

// The directory holding perf/instrumented.hpp: the installed one (<prefix>/include),
// else, for a binary run from its build tree, the source tree's.
std::string perf_include_dir();

// The real path of the zero-edit CMake file installed with the binary; an error
// for a binary that was not installed.
llvm::Expected<std::string> zero_edit_cmake_file();

}  // namespace perf::tool

#endif  // PERF_TOOL_INSTALL_LAYOUT_HPP
