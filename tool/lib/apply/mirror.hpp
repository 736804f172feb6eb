// An instrumented copy of the project's sources beside the originals, and the
// compiler commands that build it: the output of -o DIR and of --launch.
#ifndef PERF_TOOL_MIRROR_HPP
#define PERF_TOOL_MIRROR_HPP

#include <llvm/Support/Error.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "lib/compiler_command.hpp"
#include "lib/plan/rewrite_plan.hpp"
#include "lib/project.hpp"

namespace perf::tool {

// The project files a run read, each at its path relative to the project's root
// under a directory outside the project, instrumented as the run's edits say.
class mirror {
 public:
  // Reads every file the plan's units read and applies the plan's edits to it.
  static llvm::Expected<mirror> make(const std::string& output_dir, const project& editable, const rewrite_plan& plan);

  // --launch: the same for the plan of one unit, `unit` (a real path), under
  // `mirrors_dir/<key>`, the key a hash of every file's path and instrumented text.
  // Units whose plans agree share a tree; a unit whose plan differs (another
  // standard, filter or macro) has its own, so no compile ever reads a text planned
  // for another unit. Each file of a tree is a hard link to `mirrors_dir/texts/<hash>`,
  // the one copy of that file's text. The unit's mirror is compiled as the main file
  // (compile_as_main_file()).
  static llvm::Expected<mirror> make_for_unit(const std::string& mirrors_dir, const project& editable,
                                              const rewrite_plan& plan, const std::string& unit);

  // The directory the project's root is mirrored to.
  const std::string& directory() const { return output_dir_; }

  // Where the mirror of `real_path` (a file or directory in the project) lies.
  std::string path_of(const std::string& real_path) const;

  // `command` made to build the mirror: the unit's file, if in the project, is its
  // mirror; every include directory in the project is searched in the mirror first
  // and then where it is (instrumented headers are found before the originals, the
  // others still resolve); files given to -include and -imacros are their mirrors;
  // the perf headers are added. Prefix maps make __FILE__ and the debug information
  // name the originals of the files the mirror holds as they are (as the command's
  // own maps rewrite them; the others' #line names them). A unit compiled as the
  // main file (compile_as_main_file()) gets the runtime header with -include, and a
  // map of its own naming the unit.
  std::vector<std::string> arguments(const compiler_command& command) const;

  // Makes the mirror of `unit` (a real path; nothing if the mirror does not hold it)
  // the compiler's main file under its mirror's name: its text loses the file prefix,
  // so that every line is where the original has it and no `#line` renames it. GCC
  // takes a file for the main file only under the name the command gives it (under a
  // `#line` naming the original, the unit is a header to it, and its classes warn
  // -Wsubobject-linkage), and quotes a diagnostic's line from the file the location
  // names, at columns counted in the file compiled.
  void compile_as_main_file(const std::string& unit);

  // Writes the files whose mirror is missing or different, each atomically, and
  // `extra` (path -> text) with them; a file already up to date keeps its time stamp.
  // Returns the real paths of the originals whose mirrors were written (for a unit's
  // mirror: whose text was written for the first time, in any tree).
  llvm::Expected<std::set<std::string>> write(const std::map<std::string, std::string>& extra = {}) const;

 private:
  mirror(std::string output_dir, const project& editable) : output_dir_(std::move(output_dir)), editable_(editable) {}

  // Links each file of a unit's tree to the one copy of its text (see make_for_unit).
  llvm::Expected<std::set<std::string>> link_texts() const;

  std::string output_dir_;
  std::string texts_dir_;  // for a unit's mirror: where the copies of the texts are
  project editable_;
  std::map<std::string, std::string> texts_;  // real path of the original -> mirrored text
  // The units compiled as main files (real paths) -> whether the mirror needs
  // <perf/instrumented.hpp> by -include.
  std::map<std::string, bool> main_files_;
};

// Why -o cannot write to `output_dir` (a real path), "" when it can: a directory
// inside the project, the directory `database_dir` holding the database being read
// (its compile_commands.json would be overwritten), or another build tree.
std::string unfit_output_dir(const std::string& output_dir, const project& editable, const std::string& database_dir);

// -o DIR: writes the mirror of `plan` under `output_dir` and
// `output_dir/compile_commands.json` with an entry per command of `units` (as the
// database names them), made by mirror::arguments, each unit compiled as the main
// file (mirror::compile_as_main_file) unless a unit includes it (a test including the
// unit it tests: its mirror keeps the prefix, which brings the runtime header along).
// Nothing is written outside
// `output_dir`: a unit outside the project keeps its path.
llvm::Error write_mirror(const std::string& output_dir, const project& editable, const rewrite_plan& plan,
                         const clang::tooling::CompilationDatabase& database, const std::vector<std::string>& units);

}  // namespace perf::tool

#endif  // PERF_TOOL_MIRROR_HPP
