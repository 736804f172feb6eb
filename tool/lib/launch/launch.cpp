#include "lib/launch/launch.hpp"

#include <clang/Tooling/CompilationDatabase.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Process.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/raw_ostream.h>

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <type_traits>

#include "lib/apply/mirror.hpp"
#include "lib/collect/function_size.hpp"
#include "lib/compiler_command.hpp"
#include "lib/diagnostics.hpp"
#include "lib/files.hpp"
#include "lib/launch/marked_text.hpp"
#include "lib/launch/plan_cache.hpp"
#include "lib/resolve/function_report.hpp"
#include "lib/rewrite.hpp"

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

// `text` with every `from` replaced by `to`.
std::string replaced(const std::string& text, const std::string& from, const std::string& to) {
  std::string out;
  for (std::size_t at = 0;;) {
    const std::size_t found = text.find(from, at);
    if (found == std::string::npos) return out + text.substr(at);
    out += text.substr(at, found - at) + to;
    at = found + from.size();
  }
}

// The type of ExecuteAndWait's stream redirections: llvm::Optional<StringRef> before
// LLVM 16, std::optional since.
template <class>
struct redirects_parameter;
template <class Result, class Program, class Arguments, class Environment, class Redirects, class... Rest>
struct redirects_parameter<Result (*)(Program, Arguments, Environment, Redirects, Rest...)> {
  using type = std::remove_const_t<typename Redirects::value_type>;
};
using redirect = redirects_parameter<decltype(&llvm::sys::ExecuteAndWait)>::type;

// Runs `command` (a program and its arguments, found on PATH) behind `launchers`;
// its exit status (127: not found, as a shell says it). What it prints on stderr
// is passed through `diagnostics` first, if given.
int run_program(const std::vector<std::string>& launchers, const std::vector<std::string>& command,
                const std::function<std::string(const std::string&)>& diagnostics = {}) {
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
  llvm::SmallString<128> captured;
  redirect redirects[3];
  if (diagnostics) {
    if (const std::error_code failure = llvm::sys::fs::createTemporaryFile("perf-instrument", "stderr", captured)) {
      print_error("cannot create a temporary file: " + failure.message());
      return 1;
    }
    redirects[2] = captured.str();
  }
  std::string problem;
  const int status = llvm::sys::ExecuteAndWait(program, refs, {}, redirects, 0, 0, &problem);
  if (diagnostics) {
    if (const std::optional<std::string> text = read_file(std::string(captured)))
      print_compiler_diagnostics(diagnostics(*text));
    llvm::sys::fs::remove(captured);
  }
  if (status < 0) {
    print_error(arguments.front() + ": " + problem);
    return 1;
  }
  return status;
}

// `arguments`, with colour asked for when the compiler would colour its diagnostics
// by itself: its stderr is captured into a file (to name the sources), so its own
// test for a terminal fails. Nothing changes when the command chooses already.
std::vector<std::string> coloured_as_on_a_terminal(std::vector<std::string> arguments) {
  if (!llvm::sys::Process::StandardErrHasColors()) return arguments;
  for (const std::string& argument : arguments)
    for (const char* choice :
         {"-fdiagnostics-color", "-fno-diagnostics-color", "-fcolor-diagnostics", "-fno-color-diagnostics"})
      if (argument.rfind(choice, 0) == 0) return arguments;
  arguments.push_back("-fdiagnostics-color=always");
  return arguments;
}

// With --verbose, what the launcher did with `unit`: one line on stderr.
void say(const launch_options& options, const std::string& unit, const std::string& what) {
  if (options.verbose) print_message(unit + ": " + what);
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
  return replaced(depfile_text, escaped(mirror_dir), escaped(root));
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
    print_warning(command.unit_path() +
                  " is compiled without measurements: the rewriter could not parse it (see above)");
    return run_program(options.launchers, options.command);
  }
  llvm::Expected<mirror> instrumented =
      mirror::make_for_unit(options.mirror_dir, options.editable, *plan, command.unit_path());
  llvm::Expected<std::set<std::string>> written =
      instrumented ? instrumented->write() : llvm::Expected<std::set<std::string>>(instrumented.takeError());
  if (!written) {
    print_error(llvm::toString(written.takeError()));
    return 1;
  }
  // A header is read by many units: its functions are reported by the one that
  // (re)writes its mirror, once per change, and the unit's own functions every time.
  // Counted per file, each line naming it: whichever unit a parallel build compiles
  // first, a file's counts are the same.
  std::map<std::string, std::size_t> left_out;                  // file -> functions
  std::map<std::string, std::set<selected_function>> reported;  // file -> functions
  for (const selected_function& f : plan->edits.functions) {
    if (!(f.file == command.unit_path() || written->count(f.file) != 0)) continue;
    if (!is_below_threshold(f.skip_reason)) {
      reported[f.file].insert(f);
      continue;
    }
    ++left_out[f.file];
    if (options.verbose) list_function(f, llvm::errs());
  }
  for (const auto& [file, functions] : reported) report_skipped(functions, file);
  for (const auto& [file, count] : left_out) report_left_out(count, chosen.size_threshold(), file);
  // The compiler names a file's mirror where it names a file the run left as it is,
  // and the unit's mirror for the unit (see mirror::arguments): its diagnostics name
  // the originals.
  const std::function<std::string(const std::string&)> diagnostics =
      [mirrored = instrumented->directory() + "/", root = options.editable.root + "/"](const std::string& text) {
        return replaced(text, mirrored, root);
      };
  const int status =
      run_program(options.launchers, coloured_as_on_a_terminal(instrumented->arguments(command)), diagnostics);
  if (status == 0) {
    if (const std::optional<std::string> depfile = command.depfile())
      unmirror_depfile(fs::absolute(*depfile).string(), instrumented->directory(), options.editable.root);
  }
  return status;
}

}  // namespace perf::tool
