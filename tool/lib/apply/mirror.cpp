#include "lib/apply/mirror.hpp"

#include <clang/Tooling/CompilationDatabase.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <filesystem>

#include "lib/diagnostics.hpp"
#include "lib/files.hpp"
#include "lib/install_layout.hpp"
#include "lib/plan/instrumentation_text.hpp"

namespace perf::tool {
namespace fs = std::filesystem;

llvm::Expected<mirror> mirror::make(const std::string& output_dir, const project& editable, const rewrite_plan& plan) {
  mirror made(output_dir, editable);
  const resolved_edits& edits = plan.edits;
  for (const std::string& path : plan.files_read) {
    std::optional<std::string> text = read_file(path);
    if (!text) return error("cannot read " + path);
    const auto found = edits.files.find(path);
    made.texts_[path] = found == edits.files.end() ? std::move(*text)
                                                   : apply_edits(*text, path, found->second, destination::renamed_copy);
  }
  return made;
}

llvm::Expected<mirror> mirror::make_for_unit(const std::string& mirrors_dir, const project& editable,
                                             const rewrite_plan& plan, const std::string& unit) {
  llvm::Expected<mirror> made = make(mirrors_dir, editable, plan);
  if (!made) return made.takeError();
  made->compile_as_main_file(unit);
  std::string key;
  for (const auto& [path, text] : made->texts_) key = hash_of({key, path, text});
  made->output_dir_ = mirrors_dir + "/" + key;
  made->texts_dir_ = mirrors_dir + "/texts";
  return made;
}

void mirror::compile_as_main_file(const std::string& unit) {
  const auto found = texts_.find(unit);
  if (found == texts_.end()) return;
  std::string& text = found->second;
  const std::size_t prefix = file_prefix_length(text);
  text.erase(file_prefix_offset(text), prefix);
  main_files_[unit] = main_files_[unit] || prefix != 0;
}

std::string mirror::path_of(const std::string& real_path) const {
  return (fs::path(output_dir_) / fs::path(real_path).lexically_relative(editable_.root)).lexically_normal().string();
}

std::vector<std::string> mirror::arguments(const compiler_command& command) const {
  std::vector<std::string> out;
  for (const command_argument& argument : command.arguments()) {
    const std::string& option = argument.option;
    if (option == "-I" || option == "-iquote" || option == "-isystem" || option == "-idirafter") {
      if (argument.real_path == editable_.root || editable_.contains(argument.real_path))
        out.push_back(option + path_of(argument.real_path));
      out.push_back(option + argument.value);
    } else if (option == "-include" || option == "-imacros") {
      out.push_back(option);
      out.push_back(texts_.count(argument.real_path) ? path_of(argument.real_path) : argument.value);
    } else if (argument.is_input() && argument.real_path == command.unit_path() &&
               editable_.contains(command.unit_path())) {
      out.push_back(path_of(command.unit_path()));
    } else {
      out.insert(out.end(), argument.words.begin(), argument.words.end());
    }
  }
  out.push_back("-I" + perf_include_dir());
  const auto main_file = main_files_.find(command.unit_path());
  const bool unit_is_main_file = main_file != main_files_.end();
  if (unit_is_main_file && main_file->second) {
    out.push_back("-include");
    out.push_back(perf_include_dir() + "/perf/instrumented.hpp");
  }
  // Given last, so that GCC tries these first (Clang tries the longest first): the
  // mirror's root is the project's root (a file the run left as it is has no #line
  // naming its original), the unit's mirror is the unit, each as the command's own
  // maps write the original.
  for (const char* map : {"-fmacro-prefix-map=", "-fdebug-prefix-map="}) {
    out.push_back(map + output_dir_ + "/=" + command.prefix_mapped(editable_.root + "/", map));
    if (unit_is_main_file)
      out.push_back(map + path_of(command.unit_path()) + "=" + command.prefix_mapped(command.unit_path(), map));
  }
  return out;
}

llvm::Expected<std::set<std::string>> mirror::write(const std::map<std::string, std::string>& extra) const {
  if (!texts_dir_.empty()) return link_texts();
  std::map<std::string, std::string> changed = extra;  // mirror path -> text
  std::set<std::string> written;
  for (const auto& [path, text] : texts_) {
    const std::string target = path_of(path);
    if (read_file(target) == text) continue;
    changed[target] = text;
    written.insert(path);
  }
  if (llvm::Error failure = write_files_atomically(changed)) return failure;
  return written;
}

std::string unfit_output_dir(const std::string& output_dir, const project& editable, const std::string& database_dir) {
  if (output_dir == editable.root || editable.contains(output_dir))
    return "the output directory " + output_dir + " is inside the project " + editable.root;
  if (output_dir == real_path(database_dir))
    return "the output directory " + output_dir +
           " holds the compilation database being read; choose a directory of its own";
  if (fs::exists(fs::path(output_dir) / "CMakeCache.txt"))
    return "the output directory " + output_dir +
           " is a build tree (it holds CMakeCache.txt); choose a directory of its own";
  return {};
}

llvm::Expected<std::set<std::string>> mirror::link_texts() const {
  std::set<std::string> written;
  for (const auto& [path, text] : texts_) {
    // Neither a copy nor a tree's file is ever replaced: their names say what they hold.
    const std::string copy = texts_dir_ + "/" + hash_of({path, text});
    llvm::Expected<bool> first = write_file_once(copy, text);
    if (!first) return first.takeError();
    if (*first) written.insert(path);
    llvm::Expected<bool> linked = link_once(copy, path_of(path));
    if (!linked) return linked.takeError();
  }
  return written;
}

llvm::Error write_mirror(const std::string& output_dir, const project& editable, const rewrite_plan& plan,
                         const clang::tooling::CompilationDatabase& database, const std::vector<std::string>& units) {
  llvm::Expected<mirror> layout = mirror::make(output_dir, editable, plan);
  if (!layout) return layout.takeError();
  std::vector<std::pair<clang::tooling::CompileCommand, compiler_command>> commands;
  for (const std::string& unit : units)
    for (const clang::tooling::CompileCommand& command : database.getCompileCommands(unit)) {
      commands.emplace_back(command, compiler_command(command));
      if (!plan.files_included.count(commands.back().second.unit_path()))
        layout->compile_as_main_file(commands.back().second.unit_path());
    }
  llvm::json::Array entries;
  for (const auto& [command, read] : commands) {
    llvm::json::Object entry{
        {"directory", command.Directory},
        {"file", editable.contains(read.unit_path()) ? layout->path_of(read.unit_path()) : command.Filename},
        {"arguments", layout->arguments(read)}};
    if (!command.Output.empty()) entry["output"] = command.Output;
    entries.push_back(std::move(entry));
  }
  std::string database_text;
  llvm::raw_string_ostream(database_text) << llvm::formatv("{0:2}", llvm::json::Value(std::move(entries))) << "\n";
  return layout->write({{(fs::path(output_dir) / "compile_commands.json").string(), database_text}}).takeError();
}

}  // namespace perf::tool
