#include "lib/driver.hpp"

#include <clang/Tooling/JSONCompilationDatabase.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "lib/apply/changes.hpp"
#include "lib/apply/mirror.hpp"
#include "lib/apply/original_times.hpp"
#include "lib/apply/unified_diff.hpp"
#include "lib/collect/function_size.hpp"
#include "lib/diagnostics.hpp"
#include "lib/files.hpp"
#include "lib/install_layout.hpp"
#include "lib/instrument_options.hpp"
#include "lib/launch/launch.hpp"
#include "lib/resolve/function_report.hpp"
#include "lib/rewrite.hpp"

namespace perf::tool {
namespace {

namespace fs = std::filesystem;

int fail(int status, const llvm::Twine& message) {
  print_error(message);
  return status;
}

int fail(int status, llvm::Error failure) { return fail(status, llvm::toString(std::move(failure))); }

// The database's files: real path -> the name the database knows it by.
std::map<std::string, std::string> database_files(const clang::tooling::CompilationDatabase& database) {
  std::map<std::string, std::string> files;
  for (const std::string& file : database.getAllFiles()) files.emplace(real_path(file), file);
  return files;
}

// Every unit of the database whose file exists, as the database names it; a
// warning for each that does not (a stale database): the others are still worth a run.
std::vector<std::string> existing_units(const std::map<std::string, std::string>& known,
                                        const std::string& database_path) {
  std::vector<std::string> units;
  for (const auto& [path, name] : known) {
    if (fs::exists(path)) units.push_back(name);
    else print_warning(path + " does not exist: its entry in " + real_path(database_path) + " is skipped");
  }
  return units;
}

// The units to parse, as the database names them: `given`, or all of them.
llvm::Expected<std::vector<std::string>> units_to_parse(const std::vector<std::string>& given,
                                                        const std::map<std::string, std::string>& known,
                                                        const std::string& database_path) {
  std::vector<std::string> units;
  if (given.empty()) return existing_units(known, database_path);
  for (const std::string& file : given) {
    const auto found = known.find(real_path(file));
    if (!fs::exists(file)) return error(file + ": no such file");
    if (found != known.end()) units.push_back(found->second);
    else return error(file + " is not in " + database_path);
  }
  return units;
}

// The selected functions: skipped ones are reported on stderr (report_skipped; with
// --list, only the marked ones: the list names the others); --list also prints every
// one on stdout.
void print_selected(const std::set<selected_function>& functions, bool list) {
  for (const selected_function& f : functions) {
    if (list && f.marked && !f.skip_reason.empty()) warn_skipped(f);
    if (!f.renamed_by.empty()) warn_renamed(f);
    if (list) list_function(f);
  }
  if (!list) report_skipped(functions);
}

// Without a database (`objects` nullopt) no modification time is given back:
// whether a build compiled the instrumented files since cannot be told.
int revert(const project& editable, const std::string& build_dir,
           const std::optional<std::vector<std::string>>& objects) {
  const change_set changes = revert_changes(editable);
  llvm::Expected<std::size_t> restored = write_revert(changes, build_dir, objects);
  if (!restored) return fail(input_error, restored.takeError());
  print_message("reverted " + count_of(changes.size(), "file") + " under " + editable.root + " (" +
                std::to_string(*restored) + " with their modification times from before)");
  return success;
}

// --cmake-include: the zero-edit CMake file installed with this binary.
int print_cmake_include() {
  llvm::Expected<std::string> file = zero_edit_cmake_file();
  if (!file) return fail(input_error, file.takeError());
  llvm::outs() << *file << "\n";
  return success;
}

// --launch: the project is the build's source directory less the build tree; the
// mirror lies in the build tree.
int launch_compiler(const run_options& options) {
  if (options.files.empty()) return fail(usage_error, "--launch needs a compiler command after --");
  llvm::Expected<project> editable = find_project(options.root, options.build_dir, {});
  if (!editable) return fail(input_error, editable.takeError());
  editable->excluded.push_back(options.build_dir);
  // The build's database, when it writes one, names every command's system directories.
  std::string ignored;
  if (const auto database = clang::tooling::JSONCompilationDatabase::loadFromFile(
          options.build_dir + "/compile_commands.json", ignored, clang::tooling::JSONCommandLineSyntax::AutoDetect))
    editable->system_directories = system_directories(*database);
  std::string configuration = options.invocation;
  for (const std::string& directory : editable->system_directories) configuration += "\n" + directory;
  return launch({*editable, options.build_dir + "/perf-instrument/mirror", options.launchers, options.files,
                 options.build_dir + "/perf-instrument/plans", configuration, options.verbose},
                options.chosen);
}

}  // namespace

int run_command_line(int argc, const char** argv) {
  llvm::Expected<run_options> options = parse_command_line(argc, argv);
  if (!options) return fail(usage_error, options.takeError());
  if (options->mode == mode::cmake_include) return print_cmake_include();
  if (options->mode == mode::launch) return launch_compiler(*options);
  if (options->mode == mode::revert && !options->root.empty()) {  // no database needed
    llvm::Expected<project> editable = find_project(options->root, options->build_dir, {});
    return editable ? revert(*editable, options->build_dir, std::nullopt) : fail(input_error, editable.takeError());
  }

  const std::string database_path = options->build_dir + "/compile_commands.json";
  std::string load_error;
  const std::unique_ptr<clang::tooling::CompilationDatabase> database =
      clang::tooling::JSONCompilationDatabase::loadFromFile(database_path, load_error,
                                                            clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!database)
    return fail(input_error, "cannot read the compilation database " + database_path + ": " + load_error +
                                 "\n  Produce one with CMake's -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or with "
                                 "`bear -- <your build command>`.");
  const std::map<std::string, std::string> known = database_files(*database);
  std::vector<std::string> known_paths;
  for (const auto& [path, name] : known) known_paths.push_back(path);
  llvm::Expected<project> editable = find_project(options->root, options->build_dir, known_paths);
  if (!editable) return fail(input_error, editable.takeError());
  editable->system_directories = system_directories(*database);

  if (options->mode == mode::revert) return revert(*editable, options->build_dir, object_files(*database));
  const std::string& output_dir = options->output_dir;
  if (const std::string problem =
          options->mode == mode::mirror ? unfit_output_dir(output_dir, *editable, options->build_dir) : "";
      !problem.empty())
    return fail(usage_error, problem);
  llvm::Expected<std::vector<std::string>> units = units_to_parse(options->files, known, database_path);
  if (!units) return fail(input_error, units.takeError());

  llvm::Expected<rewrite_plan> plan =
      rewrite(*database, *units, options->extra, options->jobs, options->chosen, *editable);
  if (!plan) return fail(input_error, llvm::toString(plan.takeError()) + "; nothing was written");
  print_selected(plan->edits.functions, options->mode == mode::list);
  if (options->mode != mode::in_place)  // its summary line counts them
    report_left_out(std::count_if(plan->edits.functions.begin(), plan->edits.functions.end(),
                                  [](const selected_function& f) { return is_below_threshold(f.skip_reason); }),
                    options->chosen.size_threshold(), "the selection");
  if (options->mode == mode::list) return success;
  if (options->mode == mode::mirror) {
    if (llvm::Error failure = write_mirror(output_dir, *editable, *plan, *database, *units))
      return fail(input_error, std::move(failure));
    return success;
  }
  llvm::Expected<change_set> changes = instrumentation_changes(plan->edits);
  if (!changes) return fail(input_error, changes.takeError());
  if (options->mode == mode::diff) {
    for (const auto& [path, change] : *changes)
      llvm::outs() << unified_diff(fs::path(path).lexically_relative(editable->root).string(), change.before,
                                   change.after);
    return success;
  }
  if (llvm::Error failure = write_instrumentation(*changes, options->build_dir))
    return fail(input_error, std::move(failure));
  print_message("changed " + count_of(changes->size(), "file") + " under " + editable->root + ": " +
                functions_summary(plan->edits.functions));
  return success;
}

}  // namespace perf::tool
