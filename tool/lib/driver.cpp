#include "driver.hpp"

#include <clang/Driver/Options.h>
#include <clang/Tooling/ArgumentsAdjusters.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/JSONCompilationDatabase.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Option/ArgList.h>
#include <llvm/Option/OptTable.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <set>
#include <thread>

#include "collector.hpp"
#include "files.hpp"
#include "instrumentation_text.hpp"
#include "unified_diff.hpp"

namespace perf::tool {
namespace {

namespace cl = llvm::cl;
namespace fs = std::filesystem;
using clang::tooling::CommandLineArguments;

// Compiler arguments the installed Clang does not know (GCC's, mostly), dropped so
// that a GCC build's database parses.
CommandLineArguments drop_unknown_arguments(const CommandLineArguments& arguments, llvm::StringRef) {
  if (arguments.empty()) return arguments;
  std::vector<const char*> raw;
  for (size_t i = 1; i < arguments.size(); ++i) raw.push_back(arguments[i].c_str());
  unsigned missing_index = 0, missing_count = 0;
  const llvm::opt::InputArgList parsed =
      clang::driver::getDriverOptTable().ParseArgs(raw, missing_index, missing_count);
  std::set<std::string> unknown;
  for (const llvm::opt::Arg* argument : parsed.filtered(clang::driver::options::OPT_UNKNOWN))
    unknown.insert(argument->getAsString(parsed));
  CommandLineArguments kept = {arguments[0]};
  for (size_t i = 1; i < arguments.size(); ++i)
    if (!unknown.count(arguments[i])) kept.push_back(arguments[i]);
  return kept;
}

// The perf headers: installed beside the binary (<prefix>/include), else the source tree's.
std::string perf_include_dir() {
  static const std::string directory = [] {
    static int anchor;
    const fs::path installed =
        fs::path(llvm::sys::fs::getMainExecutable("perf-instrument", &anchor)).parent_path().parent_path() / "include";
    return fs::exists(installed / "perf" / "instrumented.hpp") ? installed.string() : std::string(PERF_SOURCE_INCLUDE_DIR);
  }();
  return directory;
}

void error(const llvm::Twine& message) { llvm::errs() << "perf-instrument: error: " << message << "\n"; }

struct options {
  cl::OptionCategory category{"perf-instrument options"};
  cl::opt<std::string> build_dir{"p", cl::desc("Build directory holding compile_commands.json"),
                                 cl::value_desc("BUILD_DIR"), cl::init("."), cl::cat(category)};
  cl::opt<std::string> output_dir{"o", cl::desc("Write an instrumented mirror of the sources and a compile_commands.json to DIR"),
                                  cl::value_desc("DIR"), cl::cat(category)};
  cl::opt<bool> in_place{"in-place", cl::desc("Edit the sources (the default)"), cl::cat(category)};
  cl::opt<bool> revert{"revert", cl::desc("Remove what an earlier run inserted"), cl::cat(category)};
  cl::opt<bool> diff{"diff", cl::desc("Print a unified diff; write nothing"), cl::cat(category)};
  cl::opt<bool> list{"list", cl::desc("List the functions that would be measured, and those skipped; write nothing"),
                     cl::cat(category)};
  cl::list<std::string> filters{"filter", cl::desc("Also measure functions whose qualified name matches REGEX"),
                                cl::value_desc("REGEX"), cl::cat(category)};
  cl::list<std::string> excludes{"exclude", cl::desc("Never measure functions whose qualified name matches REGEX"),
                                 cl::value_desc("REGEX"), cl::cat(category)};
  cl::opt<unsigned> jobs{"j", cl::desc("Translation units parsed in parallel (default: all cores)"),
                         cl::value_desc("N"), cl::init(0), cl::cat(category)};
  cl::list<std::string> extra_args{"extra-arg", cl::desc("Append an argument to every compiler command"),
                                   cl::cat(category)};
  cl::list<std::string> extra_args_before{"extra-arg-before",
                                          cl::desc("Prepend an argument to every compiler command"), cl::cat(category)};
  cl::list<std::string> files{cl::Positional, cl::desc("[FILES...]"), cl::cat(category)};
};

// The deepest directory holding every one of `paths`.
std::string common_directory(const std::vector<std::string>& paths) {
  fs::path common;
  for (const std::string& path : paths) {
    const fs::path directory = fs::path(path).parent_path();
    if (common.empty()) {
      common = directory;
      continue;
    }
    fs::path shared;
    for (auto a = common.begin(), b = directory.begin(); a != common.end() && b != directory.end() && *a == *b; ++a, ++b)
      shared /= *a;
    common = shared;
  }
  return common.string();
}

std::string real_path(const std::string& path) {
  std::error_code ignored;
  const fs::path canonical = fs::weakly_canonical(fs::absolute(path), ignored);
  return canonical.string();
}

// Parses `files` in `jobs` threads; false if any failed to parse.
bool collect(const clang::tooling::CompilationDatabase& database, const std::vector<std::string>& files,
             const options& opts, const selection& chosen, const project& where, edit_set& edits) {
  const unsigned jobs = opts.jobs != 0 ? opts.jobs.getValue() : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::vector<std::string>> shares(std::min<size_t>(jobs, files.size()));
  for (size_t i = 0; i < files.size(); ++i) shares[i % shares.size()].push_back(files[i]);
  std::atomic<bool> failed{false};
  std::vector<std::thread> workers;
  for (const std::vector<std::string>& share : shares) {
    workers.emplace_back([&, share] {
      // A file system of its own per thread: the shared real one would chdir() the
      // whole process to each command's directory, under the other threads' feet.
      clang::tooling::ClangTool tool(database, share, std::make_shared<clang::PCHContainerOperations>(),
                                     llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>(
                                         llvm::vfs::createPhysicalFileSystem().release()));
      tool.appendArgumentsAdjuster(drop_unknown_arguments);
      tool.appendArgumentsAdjuster(clang::tooling::getInsertArgumentAdjuster(
          CommandLineArguments(opts.extra_args_before.begin(), opts.extra_args_before.end()),
          clang::tooling::ArgumentInsertPosition::BEGIN));
      CommandLineArguments after(opts.extra_args.begin(), opts.extra_args.end());
      after.push_back("-resource-dir=" PERF_CLANG_RESOURCE_DIR);
      after.push_back("-idirafter" + perf_include_dir());  // for files an earlier run instrumented
      after.push_back("-w");  // the program's warnings are its compiler's business, not this tool's
      tool.appendArgumentsAdjuster(
          clang::tooling::getInsertArgumentAdjuster(after, clang::tooling::ArgumentInsertPosition::END));
      if (tool.run(make_collector(chosen, where, edits).get()) != 0) failed = true;
    });
  }
  for (std::thread& worker : workers) worker.join();
  return !failed;
}

// The new contents of every file the run changes (a file already instrumented is
// left out, so a second run does not even touch its modification time).
std::map<std::string, std::string> instrumented_files(const edit_set& edits) {
  std::map<std::string, std::string> result;
  for (const auto& [path, insertions] : edits.insertions()) {
    const std::optional<std::string> original = read_file(path);
    if (!original) continue;
    std::string updated = apply_insertions(*original, insertions, has_file_prefix(*original) ? "" : file_prefix(path));
    if (updated != *original) result[path] = std::move(updated);
  }
  return result;
}

// Every file under `root` that an earlier run instrumented, with its original text.
std::map<std::string, std::string> reverted_files(const std::string& root) {
  std::map<std::string, std::string> result;
  std::error_code error;
  for (auto entry = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, error);
       entry != fs::recursive_directory_iterator(); entry.increment(error)) {
    if (error || !entry->is_regular_file()) continue;
    const std::optional<std::string> start = read_file(entry->path().string(), file_prefix("").size());
    if (!start || !has_file_prefix(*start)) continue;  // most files: decided on their first bytes
    if (const std::optional<std::string> text = read_file(entry->path().string()))
      result[entry->path().string()] = remove_instrumentation(*text);
  }
  return result;
}

// Writes every file or none: each one is first checked for being writable.
int write_all(const std::map<std::string, std::string>& contents) {
  for (const auto& [path, text] : contents) {
    // Write permission alone does not say it: root may write anything, yet a file
    // without write bits was made read-only on purpose.
    struct stat status {};
    const bool read_only = ::stat(path.c_str(), &status) == 0 && (status.st_mode & 0222) == 0;
    if (read_only || ::access(path.c_str(), W_OK) != 0 || ::access(fs::path(path).parent_path().c_str(), W_OK) != 0) {
      error(path + " is read-only; nothing was written");
      return input_error;
    }
  }
  for (const auto& [path, text] : contents) {
    if (const std::string failure = write_file_atomically(path, text); !failure.empty()) {
      error("cannot write " + path + ": " + failure);
      return input_error;
    }
  }
  return success;
}

std::string mirror_path(const std::string& output_dir, const project& where, const std::string& path) {
  return (fs::path(output_dir) / fs::path(path).lexically_relative(where.root)).lexically_normal().string();
}

// `argument` of a command run in `directory`, with a path under the project root
// (alone, or after -I, -iquote, -isystem, -include) turned into its mirror.
std::string mirror_argument(const std::string& argument, const std::string& directory, const std::string& output_dir,
                            const project& where) {
  for (const std::string_view option : {"-iquote", "-isystem", "-include", "-I", ""}) {
    if (argument.compare(0, option.size(), option) != 0 || argument.size() == option.size()) continue;
    const fs::path path = argument.substr(option.size());
    const std::string resolved = real_path((path.is_absolute() ? path : fs::path(directory) / path).string());
    if ((resolved != where.root && !where.contains(resolved)) || !fs::exists(resolved)) return argument;
    return std::string(option) + mirror_path(output_dir, where, resolved);
  }
  return argument;
}

int write_mirror(const std::string& output_dir, const project& where, const edit_set& edits,
                 const clang::tooling::CompilationDatabase& database, const std::vector<std::string>& files) {
  std::map<std::string, std::string> contents = instrumented_files(edits);
  for (const std::string& path : edits.files_read())
    if (!contents.count(path))
      if (const std::optional<std::string> text = read_file(path)) contents[path] = *text;

  llvm::json::Array entries;
  for (const std::string& file : files) {
    for (const clang::tooling::CompileCommand& command : database.getCompileCommands(file)) {
      llvm::json::Array arguments;
      for (const std::string& argument : command.CommandLine)
        arguments.push_back(mirror_argument(argument, command.Directory, output_dir, where));
      arguments.push_back("-I" + perf_include_dir());
      entries.push_back(llvm::json::Object{{"directory", command.Directory},
                                           {"file", mirror_path(output_dir, where, real_path(file))},
                                           {"arguments", std::move(arguments)}});
    }
  }
  for (const auto& [path, text] : contents) {
    const std::string target = mirror_path(output_dir, where, path);
    std::error_code failure;
    fs::create_directories(fs::path(target).parent_path(), failure);
    if (const std::string write_failure = write_file_atomically(target, text); !write_failure.empty()) {
      error("cannot write " + target + ": " + write_failure);
      return input_error;
    }
  }
  std::string database_text;
  llvm::raw_string_ostream(database_text) << llvm::formatv("{0:2}", llvm::json::Value(std::move(entries)));
  if (const std::string failure = write_file_atomically(output_dir + "/compile_commands.json", database_text + "\n");
      !failure.empty()) {
    error("cannot write " + output_dir + "/compile_commands.json: " + failure);
    return input_error;
  }
  return success;
}

// Skipped functions always warn; --list also prints every selected function.
void print_selection(const edit_set& edits, bool list) {
  for (const selected_function& f : edits.selected()) {
    if (!f.skip_reason.empty())
      llvm::errs() << f.file << ":" << f.line << ":" << f.column << ": warning: " << f.name
                   << " is not measured: " << f.skip_reason << "\n";
    if (list)
      llvm::outs() << f.file << ":" << f.line << ": " << f.name
                   << (f.skip_reason.empty() ? "" : " (skipped: " + f.skip_reason + ")") << "\n";
  }
}

}  // namespace

int run(int argc, const char** argv) {
  // LLVM's libraries register options of their own (one is named "filter"): start
  // from an empty parser so that only perf-instrument's options exist.
  cl::ResetCommandLineParser();
  options opts;
  cl::HideUnrelatedOptions(opts.category);
  std::string usage_problems;
  llvm::raw_string_ostream usage_stream(usage_problems);
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "Inserts call statistics into the functions marked [[perf::measure]] "
                                   "(or matched by --filter)\n",
                                   &usage_stream)) {
    llvm::errs() << usage_stream.str();
    return usage_error;
  }
  const int modes = (opts.in_place ? 1 : 0) + (opts.revert ? 1 : 0) + (opts.diff ? 1 : 0) + (opts.list ? 1 : 0) +
                    (opts.output_dir.empty() ? 0 : 1);
  if (modes > 1) {
    error("choose one of --in-place, --revert, --diff, --list and -o");
    return usage_error;
  }
  selection chosen;
  for (const std::string& f : opts.filters)
    if (const std::string problem = chosen.add_filter(f); !problem.empty()) {
      error("--filter: " + problem);
      return usage_error;
    }
  for (const std::string& f : opts.excludes)
    if (const std::string problem = chosen.add_exclude(f); !problem.empty()) {
      error("--exclude: " + problem);
      return usage_error;
    }

  const std::string database_path = (fs::path(opts.build_dir.getValue()) / "compile_commands.json").string();
  std::string load_error;
  std::unique_ptr<clang::tooling::CompilationDatabase> database = clang::tooling::JSONCompilationDatabase::loadFromFile(
      database_path, load_error, clang::tooling::JSONCommandLineSyntax::AutoDetect);
  if (!database) {
    error("cannot read the compilation database " + database_path + ": " + load_error +
          "\n  Produce one with CMake's -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or with `bear -- <your build command>`.");
    return input_error;
  }

  std::vector<std::string> all_files;
  for (const std::string& file : database->getAllFiles()) all_files.push_back(real_path(file));
  std::sort(all_files.begin(), all_files.end());  // the database's own order varies between LLVM versions
  project where{common_directory(all_files)};

  std::vector<std::string> files;
  if (opts.files.empty()) {
    files = all_files;
  } else {
    for (const std::string& file : opts.files) {
      const std::string path = real_path(file);
      if (!fs::exists(path)) {
        error(file + ": no such file");
        return input_error;
      }
      if (database->getCompileCommands(path).empty()) {
        error(file + " is not in " + database_path);
        return input_error;
      }
      files.push_back(path);
    }
  }

  if (opts.revert) return write_all(reverted_files(where.root));

  if (!opts.output_dir.empty()) {
    const std::string output = real_path(opts.output_dir);
    if (output == where.root || where.contains(output)) {
      error("the output directory " + output + " is inside the source tree " + where.root);
      return usage_error;
    }
  }

  edit_set edits;
  if (!collect(*database, files, opts, chosen, where, edits)) {
    error("a translation unit did not parse (see the errors above); nothing was written");
    return input_error;
  }
  print_selection(edits, opts.list);
  if (opts.list) return success;
  if (opts.diff) {
    for (const auto& [path, text] : instrumented_files(edits))
      llvm::outs() << unified_diff(path, *read_file(path), text);
    return success;
  }
  if (!opts.output_dir.empty()) return write_mirror(real_path(opts.output_dir), where, edits, *database, files);
  return write_all(instrumented_files(edits));
}

}  // namespace perf::tool
