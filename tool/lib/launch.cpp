#include "launch.hpp"

#include <clang/Tooling/CompilationDatabase.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/raw_ostream.h>

#include <unistd.h>

#include <filesystem>
#include <optional>

#include "collector.hpp"
#include "diagnostics.hpp"
#include "files.hpp"
#include "function_report.hpp"
#include "mirror.hpp"
#include "parallel_parse.hpp"

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

// The value of the first of `options` in `command`, joined or separate; nullopt without one.
std::optional<std::string> option_value(const std::vector<std::string>& command,
                                        std::initializer_list<const char*> options) {
  for (std::size_t i = 1; i < command.size(); ++i)
    for (const std::string name : options) {
      if (command[i] == name && i + 1 < command.size()) return command[i + 1];
      if (command[i].size() > name.size() && command[i].compare(0, name.size(), name) == 0)
        return command[i].substr(name.size());
    }
  return std::nullopt;
}

bool has_argument(const std::vector<std::string>& command, const std::string& argument) {
  return std::find(command.begin() + 1, command.end(), argument) != command.end();
}

// The dependency file the compiler writes: -MF's, else -MD's default beside -o's output.
std::optional<std::string> depfile_of(const std::vector<std::string>& command) {
  if (std::optional<std::string> path = option_value(command, {"-MF"})) return path;
  if (!has_argument(command, "-MD") && !has_argument(command, "-MMD")) return std::nullopt;
  std::optional<std::string> output = option_value(command, {"-o"});
  if (!output) return std::nullopt;
  return fs::path(*output).replace_extension(".d").string();
}

// Runs `arguments` (a program and its arguments, found on PATH); its exit status.
int run(const std::vector<std::string>& arguments) {
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

std::vector<std::string> behind(const std::vector<std::string>& launchers, std::vector<std::string> command) {
  command.insert(command.begin(), launchers.begin(), launchers.end());
  return command;
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

std::vector<std::string> source_arguments(const std::vector<std::string>& command) {
  static const std::set<std::string> extensions = {".cpp", ".cc", ".cxx", ".c++", ".C", ".cp", ".CPP", ".CC"};
  std::vector<std::string> sources;
  for (std::size_t i = 1; i < command.size(); ++i)
    if (command[i][0] != '-' && extensions.count(fs::path(command[i]).extension().string()) != 0)
      sources.push_back(command[i]);
  return sources;
}

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
  const std::vector<std::string>& command = options.command;
  const std::vector<std::string> sources = source_arguments(command);
  if (!has_argument(command, "-c") || sources.size() != 1) return run(behind(options.launchers, command));

  const std::string unit = real_path(fs::absolute(sources.front()).string());
  clang::tooling::CompileCommand compile(fs::current_path().string(), sources.front(), command,
                                         option_value(command, {"-o"}).value_or(""));
  const single_command_database database(compile);
  edit_set edits;
  const std::unique_ptr<clang::tooling::FrontendActionFactory> collector =
      make_collector(chosen, options.where, edits);
  if (parse_in_parallel(database, {sources.front()}, {}, 1, *collector) != 0) {
    print_warning(unit + " is compiled without measurements: the rewriter could not parse it (see above)");
    return run(behind(options.launchers, command));
  }
  const resolved_edits resolved = edits.resolve();
  llvm::Expected<mirror> instrumented = mirror::make(options.mirror_dir, options.where, resolved, edits.files_read());
  llvm::Expected<std::set<std::string>> written =
      instrumented ? instrumented->write() : llvm::Expected<std::set<std::string>>(instrumented.takeError());
  if (!written) {
    print_error(llvm::toString(written.takeError()));
    return 1;
  }
  // A header is read by many units: its functions are reported by the one that
  // (re)writes its mirror, once per change, and the unit's own functions every time.
  for (const selected_function& f : resolved.functions) {
    const std::string file = real_path(f.file);
    if (!f.skip_reason.empty() && (file == unit || written->count(file) != 0)) warn_skipped(f);
  }
  const int status = run(behind(options.launchers, instrumented->arguments(compile)));
  if (status == 0) {
    if (const std::optional<std::string> depfile = depfile_of(command))
      unmirror_depfile(fs::absolute(*depfile).string(), options.mirror_dir, options.where.root);
  }
  return status;
}

}  // namespace perf::tool
