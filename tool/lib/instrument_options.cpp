#include "lib/instrument_options.hpp"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <thread>

#include "lib/diagnostics.hpp"
#include "lib/files.hpp"
#include "lib/install_layout.hpp"
#include "version_info.hpp"

namespace perf::tool {
namespace {

namespace cl = llvm::cl;

struct options {
  cl::OptionCategory category{"perf-instrument options"};
  cl::opt<std::string> build_dir{"p", cl::desc("Build directory holding compile_commands.json (default: .)"),
                                 cl::value_desc("BUILD_DIR"), cl::init("."), cl::cat(category)};
  cl::opt<std::string> root{"root",
                            cl::desc("The project: only files under DIR are edited (default: CMake's source "
                                     "directory, else the directory the database's files have in common)"),
                            cl::value_desc("DIR"), cl::cat(category)};
  cl::opt<bool> in_place{"in-place", cl::desc("Edit the sources (the default)"), cl::cat(category)};
  cl::opt<bool> diff{"diff", cl::desc("Print a unified diff; write nothing"), cl::cat(category)};
  cl::opt<bool> list{"list", cl::desc("List the functions that would be measured, and those skipped; write nothing"),
                     cl::cat(category)};
  cl::opt<bool> revert{"revert", cl::desc("Remove everything earlier runs inserted"), cl::cat(category)};
  cl::opt<std::string> output_dir{"o",
                                  cl::desc("Write an instrumented mirror of the sources and a compile_commands.json "
                                           "building it to DIR (outside the project)"),
                                  cl::value_desc("DIR"), cl::cat(category)};
  cl::opt<bool> launch{"launch",
                       cl::desc("Compile the unit of the command after -- instrumented, as a compiler launcher "
                                "(the build directory is -p)"),
                       cl::cat(category)};
  cl::list<std::string> launchers{"launcher", cl::desc("With --launch: run WORD in front of the compiler (repeatable)"),
                                  cl::value_desc("WORD"), cl::cat(category)};
  cl::opt<bool> cmake_include{
      "cmake-include", cl::desc("Print the path of the CMake file for -DCMAKE_PROJECT_INCLUDE=..."), cl::cat(category)};
  cl::list<std::string> filters{"filter", cl::desc("Also measure functions whose name matches REGEX (repeatable)"),
                                cl::value_desc("REGEX"), cl::cat(category)};
  cl::list<std::string> excludes{"exclude", cl::desc("Never measure functions whose name matches REGEX (repeatable)"),
                                 cl::value_desc("REGEX"), cl::cat(category)};
  cl::list<std::string> no_ticks{"no-ticks",
                                 cl::desc("Keep the calls of measured functions whose name matches REGEX out of "
                                          "the tick log (repeatable)"),
                                 cl::value_desc("REGEX"), cl::cat(category)};
  cl::list<std::string> time_all{"time-all",
                                 cl::desc("Time every call of the measured functions whose name matches REGEX, "
                                          "never a sample of them, whatever PERF_TIMING says (repeatable)"),
                                 cl::value_desc("REGEX"), cl::cat(category)};
  // cl::desc keeps a StringRef: the text it points at must live as long as the option.
  const std::string size_threshold_text =
      "Leave out the functions only a --filter selects whose body is smaller than N statements and "
      "expressions, unless it loops (0: none; default " +
      std::to_string(default_size_threshold) + ")";
  cl::opt<unsigned> size_threshold{"size-threshold", cl::desc(size_threshold_text), cl::value_desc("N"),
                                   cl::init(default_size_threshold), cl::cat(category)};
  cl::opt<bool> verbose{"verbose",
                        cl::desc("Say what each unit cost (with --launch: parsed, plan reused, or compiled as it "
                                 "is) and list the functions the size threshold left out"),
                        cl::cat(category)};
  cl::opt<unsigned> jobs{"j", cl::desc("Translation units parsed in parallel (default: all cores)"),
                         cl::value_desc("N"), cl::init(0), cl::cat(category)};
  cl::list<std::string> extra_args{"extra-arg", cl::desc("Append an argument to every compiler command"),
                                   cl::value_desc("ARG"), cl::cat(category)};
  cl::list<std::string> extra_args_before{"extra-arg-before", cl::desc("Prepend an argument to every compiler command"),
                                          cl::value_desc("ARG"), cl::cat(category)};
  cl::list<std::string> files{cl::Positional, cl::desc("[FILES...]"), cl::cat(category)};
};

// LLVM's messages about the command line without the "PROGRAM: " each line starts
// with (the printer says who speaks), one line after the other.
std::string without_program_name(llvm::StringRef messages, llvm::StringRef program) {
  llvm::SmallVector<llvm::StringRef, 4> lines;
  messages.trim().split(lines, '\n');
  for (llvm::StringRef& line : lines) line.consume_front((program + ": ").str());
  return llvm::join(lines, "\n  ");
}

// Adds each of `expressions` with `add`; the error names `option`.
llvm::Error add_each(const cl::list<std::string>& expressions, const char* option,
                     llvm::Error (selection::*add)(const std::string&), selection& chosen) {
  for (const std::string& expression : expressions)
    if (llvm::Error problem = (chosen.*add)(expression))
      return error(llvm::Twine(option) + ": " + llvm::toString(std::move(problem)));
  return llvm::Error::success();
}

// --version: the tool's version and the git revision it was built from, the runtime's
// version (the headers the insertions include, the libraries they link: one project, one
// version) and the LLVM the tool was built against.
void print_version(llvm::raw_ostream& out) {
  out << "perf-instrument " << version_info::version << " (git " << version_info::revision << ")\n"
      << "  runtime " << version_info::version << " (headers: " << perf_include_dir() << ")\n"
      << "  built against LLVM " LLVM_VERSION_STRING "\n";
}

}  // namespace

llvm::Expected<run_options> parse_command_line(int argc, const char** argv) {
  // LLVM's libraries register options of their own (one is named "filter"): start
  // from an empty parser so that only perf-instrument's options exist.
  cl::ResetCommandLineParser();
  options given;
  cl::HideUnrelatedOptions(given.category);
  cl::SetVersionPrinter(print_version);
  std::string problems;
  llvm::raw_string_ostream problem_stream(problems);
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "Inserts call statistics into the functions marked [[perf::measure]] "
                                   "(or matched by --filter)\n",
                                   &problem_stream)) {
    return error(without_program_name(problem_stream.str(), llvm::sys::path::filename(argv[0])));
  }

  run_options result;
  // The directories are made real here, once: the rest of the run compares real paths.
  result.build_dir = real_path(given.build_dir);
  result.root = given.root.empty() ? "" : real_path(given.root);
  result.output_dir = given.output_dir.empty() ? "" : real_path(given.output_dir);
  const std::pair<bool, mode> modes[] = {{given.in_place, mode::in_place},
                                         {given.diff, mode::diff},
                                         {given.list, mode::list},
                                         {given.revert, mode::revert},
                                         {!given.output_dir.empty(), mode::mirror},
                                         {given.launch, mode::launch},
                                         {given.cmake_include, mode::cmake_include}};
  int chosen_modes = 0;
  for (const auto& [on, which] : modes)
    if (on) {
      result.mode = which;
      ++chosen_modes;
    }
  if (chosen_modes > 1)
    return error("choose one of --in-place, --diff, --list, --revert, -o, --launch and --cmake-include");
  if (llvm::Error problem = add_each(given.filters, "--filter", &selection::add_filter, result.chosen)) return problem;
  if (llvm::Error problem = add_each(given.excludes, "--exclude", &selection::add_exclude, result.chosen))
    return problem;
  if (llvm::Error problem = add_each(given.no_ticks, "--no-ticks", &selection::add_no_ticks, result.chosen))
    return problem;
  if (llvm::Error problem = add_each(given.time_all, "--time-all", &selection::add_time_all, result.chosen))
    return problem;
  for (int i = 0; i < argc; ++i) result.invocation += std::string(argv[i]) + "\n";
  result.chosen.set_size_threshold(given.size_threshold);
  result.verbose = given.verbose;
  result.jobs = given.jobs != 0 ? given.jobs.getValue() : std::max(1u, std::thread::hardware_concurrency());
  result.extra.before.assign(given.extra_args_before.begin(), given.extra_args_before.end());
  result.extra.after.assign(given.extra_args.begin(), given.extra_args.end());
  result.files.assign(given.files.begin(), given.files.end());
  result.launchers.assign(given.launchers.begin(), given.launchers.end());
  return result;
}

}  // namespace perf::tool
