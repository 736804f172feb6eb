// perf-instrument's command line (see docs/rewriter.md).
#ifndef PERF_TOOL_INSTRUMENT_OPTIONS_HPP
#define PERF_TOOL_INSTRUMENT_OPTIONS_HPP

#include <llvm/Support/Error.h>

#include <string>
#include <vector>

#include "lib/collect/selection.hpp"
#include "lib/parse/compiler_arguments.hpp"

namespace perf::tool {

// --size-threshold when not given (see docs/rewriter.md, "Size threshold").
constexpr unsigned default_size_threshold = 10;

enum class mode { in_place, diff, list, revert, mirror, launch, cmake_include };

struct run_options {
  std::string build_dir;  // holds compile_commands.json (a real path, as are the next two)
  std::string root;       // --root, "" when not given
  tool::mode mode = mode::in_place;
  std::string output_dir;  // -o
  selection chosen;
  unsigned jobs = 1;
  extra_arguments extra;
  std::vector<std::string> files;      // as given; empty: every file of the database. --launch: the command
  std::vector<std::string> launchers;  // --launcher, for --launch
  bool verbose = false;
  std::string invocation;  // the whole command line, one word a line: what --launch's plans are kept under
};

// The options of `argv`; an error for a usage error (an unknown option, two modes,
// a bad regular expression).
llvm::Expected<run_options> parse_command_line(int argc, const char** argv);

}  // namespace perf::tool

#endif  // PERF_TOOL_INSTRUMENT_OPTIONS_HPP
