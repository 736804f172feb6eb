#include "launch.hpp"

#include <clang/Tooling/CompilationDatabase.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/raw_ostream.h>

#include <filesystem>
#include <optional>

#include "compiler_command.hpp"
#include "diagnostics.hpp"
#include "files.hpp"
#include "function_report.hpp"
#include "function_size.hpp"
#include "marked_text.hpp"
#include "mirror.hpp"
#include "plan_cache.hpp"
#include "rewrite.hpp"

namespace perf::tool {
namespace {

namespace fs = std::filesystem;

// A database of the one command being launched.
class single_command_database : public clang::tooling::CompilationDatabase {
 public:
  explicit single_command_database(clang::tooling::CompileCommand command) : command_(std::move(command)) {}
  std::vector<clang::tooling::CompileCommand> getCompileCommands(llvm::StringRef file) const override {
    if (file == command_.Filename) return {command_};
    return {};
  }
  std::vector<std::string> getAllFiles() const override { return {command_.Filename}; }

 private:
  clang::tooling::CompileCommand command_;
};

// Runs `arguments` (a program and its arguments, found on PATH) behind `launchers`;
// its exit status (127: not found, as a shell says it).
int run_program(const std::vector<std::string>& launchers, const std::vector<std::string>& command) {
  std::vector<std::string> arguments = launchers;
  arguments.insert(arguments.end(), command.begin(), command.end());
  std::string program = arguments.front();
  if (program.find('/') == std::string::npos) {
    llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName(program);
    if (!found) {
      print_error("cannot find " + program + " on PATH");
      return 127;
    }
    program = *found;
  }
  std::vector<llvm::StringRef> refs(arguments.begin(), arguments.end());
  std::string problem;
  const int status = llvm::sys::ExecuteAndWait(program, refs, {}, {}, 0, 0, &problem);
  if (status < 0) {
    print_error(arguments.front() + ": " + problem);
    return 1;
  }
  return status;
}

// With --verbose, what the launcher did with `unit`: one line on stderr.
void say(const launch_options& options, const std::string& unit, const std::string& what) {
  if (options.verbose) llvm::errs() << "perf-instrument: " << unit << ": " << what << "\n";
}

// The unit's plan: kept from an earlier build if nothing it read changed, else parsed
// (and kept); an error when it does not parse.
llvm::Expected<rewrite_plan> plan_unit(const launch_options& options, const selection& chosen,
                                       const compiler_command& command) {
  const plan_cache kept(options.plans_dir, options.configuration + "\n" + command.directory());
  if (std::optional<rewrite_plan> plan = kept.load()) {
    say(options, command.unit_path(), "plan reused, not parsed");
    return std::move(*plan);
  }
  say(options, command.unit_path(), "parsed");
  const clang::tooling::CompileCommand compile(command.directory(), command.unit(), options.command,
                                               command.value_of("-o").value_or(""));
  llvm::Expected<rewrite_plan> plan =
      rewrite(single_command_database(compile), {command.unit()}, {}, 1, chosen, options.editable);
  if (plan) kept.store(*plan);
  return plan;
}

// The dependency file at `path` made to name the originals; a warning if it cannot be.
void unmirror_depfile(const std::string& path, const std::string& mirror_dir, const std::string& root) {
  const std::optional<std::string> text = read_file(path);
  if (!text) return;  // the compiler wrote none
  const std::string fixed = unmirrored_dependencies(*text, mirror_dir, root);
  if (fixed == *text) return;
  if (llvm::Error failure = write_files_atomically({{path, fixed}})) print_warning(llvm::toString(std::move(failure)));
}

}  // namespace

std::string unmirrored_dependencies(const std::string& depfile_text, const std::string& mirror_dir,
                                    const std::string& root) {
  // Make escapes a space in a path as "\ ": the prefixes are matched as written.
  auto escaped = [](const std::string& path) {
    std::string out;
    for (const char c : path) out += c == ' ' ? std::string("\\ ") : std::string(1, c);
    return out + "/";
  };
  const std::string from = escaped(mirror_dir), to = escaped(root);
  std::string out;
  for (std::size_t at = 0;;) {
    const std::size_t found = depfile_text.find(from, at);
    if (found == std::string::npos) return out + depfile_text.substr(at);
    out += depfile_text.substr(at, found - at) + to;
    at = found + from.size();
  }
}

int launch(const launch_options& options, const selection& chosen) {
  const compiler_command command(fs::current_path().string(), options.command);
  if (!command.has("-c") || command.unit().empty()) return run_program(options.launchers, options.command);

  if (!chosen.has_filters() && !may_mark_functions(command, options.editable)) {
    say(options, command.unit_path(), "no function selected: compiled as it is, not parsed");
    return run_program(options.launchers, options.command);
  }
  llvm::Expected<rewrite_plan> plan = plan_unit(options, chosen, command);
  if (!plan) {
    llvm::consumeError(plan.takeError());  // the diagnostics are printed
    print_warning(command.unit_path() + " is compiled without measurements: the rewriter could not parse it (see above)");
    return run_program(options.launchers, options.command);
  }
  llvm::Expected<mirror> instrumented = mirror::make_for_unit(options.mirror_dir, options.editable, *plan);
  llvm::Expected<std::set<std::string>> written =
      instrumented ? instrumented->write() : llvm::Expected<std::set<std::string>>(instrumented.takeError());
  if (!written) {
    print_error(llvm::toString(written.takeError()));
    return 1;
  }
  // A header is read by many units: its functions are reported by the one that
  // (re)writes its mirror, once per change, and the unit's own functions every time.
  std::size_t left_out = 0;
  for (const selected_function& f : plan->edits.functions) {
    if (f.skip_reason.empty() || !(f.file == command.unit_path() || written->count(f.file) != 0)) continue;
    if (!is_below_threshold(f.skip_reason)) {
      warn_skipped(f);
      continue;
    }
    ++left_out;
    if (options.verbose) list_function(f, llvm::errs());
  }
  report_left_out(left_out, chosen.size_threshold(), command.unit_path());
  const int status = run_program(options.launchers, instrumented->arguments(command));
  if (status == 0) {
    if (const std::optional<std::string> depfile = command.depfile())
      unmirror_depfile(fs::absolute(*depfile).string(), instrumented->directory(), options.editable.root);
  }
  return status;
}

}  // namespace perf::tool
