#include "mirror.hpp"

#include <clang/Tooling/CompilationDatabase.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <filesystem>

#include "compiler_arguments.hpp"
#include "diagnostics.hpp"
#include "files.hpp"

namespace perf::tool {
namespace {

namespace fs = std::filesystem;

std::string resolved(const std::string& path, const std::string& directory) {
  return fs::path(path).is_absolute() ? path : (fs::path(directory) / path).string();
}

// Whether in[i] is one of `options`, joined to its value or followed by it (then
// `i` moves past the value).
bool split(const std::vector<std::string>& in, std::size_t& i, std::initializer_list<const char*> options,
           std::string& option, std::string& value) {
  for (const std::string name : options) {
    if (in[i] == name && i + 1 < in.size()) {
      option = name;
      value = in[++i];
      return true;
    }
    if (in[i].size() > name.size() && in[i].compare(0, name.size(), name) == 0) {
      option = name;
      value = in[i].substr(name.size());
      return true;
    }
  }
  return false;
}

}  // namespace

llvm::Expected<mirror> mirror::make(const std::string& output_dir, const project& where, const resolved_edits& edits,
                                    const std::set<std::string>& files_read) {
  mirror made(output_dir, where);
  for (const std::string& path : files_read) {
    std::optional<std::string> text = read_file(path);
    if (!text) return error("cannot read " + path);
    const auto found = edits.files.find(path);
    made.texts_[path] = found == edits.files.end() ? std::move(*text) : apply_edits(*text, path, found->second);
  }
  return made;
}

std::string mirror::path_of(const std::string& real_path) const {
  return (fs::path(output_dir_) / fs::path(real_path).lexically_relative(where_.root)).lexically_normal().string();
}

std::vector<std::string> mirror::arguments(const clang::tooling::CompileCommand& command) const {
  const std::string unit = real_path(resolved(command.Filename, command.Directory));
  std::vector<std::string> out;
  const std::vector<std::string>& in = command.CommandLine;
  for (std::size_t i = 0; i < in.size(); ++i) {
    std::string option, value;
    if (split(in, i, {"-I", "-iquote", "-isystem", "-idirafter"}, option, value)) {
      const std::string directory = real_path(resolved(value, command.Directory));
      if (directory == where_.root || where_.contains(directory)) out.push_back(option + path_of(directory));
      out.push_back(option + value);
    } else if (split(in, i, {"-include", "-imacros"}, option, value)) {
      const std::string file = real_path(resolved(value, command.Directory));
      out.push_back(option);
      out.push_back(texts_.count(file) ? path_of(file) : value);
    } else {
      const bool is_unit = i > 0 && in[i][0] != '-' && real_path(resolved(in[i], command.Directory)) == unit;
      out.push_back(is_unit && where_.contains(unit) ? path_of(unit) : in[i]);
    }
  }
  out.push_back("-I" + perf_include_dir());
  return out;
}

llvm::Expected<std::set<std::string>> mirror::write(const std::map<std::string, std::string>& extra) const {
  std::map<std::string, std::string> changed = extra;  // mirror path -> text
  std::set<std::string> written;
  for (const auto& [path, text] : texts_) {
    const std::string target = path_of(path);
    if (read_file(target) == text) continue;
    changed[target] = text;
    written.insert(path);
  }
  if (llvm::Error error = write_files_atomically(changed)) return error;
  return written;
}

std::string unfit_output_dir(const std::string& output_dir, const project& where, const std::string& database_dir) {
  if (output_dir == where.root || where.contains(output_dir))
    return "the output directory " + output_dir + " is inside the project " + where.root;
  if (output_dir == real_path(database_dir))
    return "the output directory " + output_dir +
           " holds the compilation database being read; choose a directory of its own";
  if (fs::exists(fs::path(output_dir) / "CMakeCache.txt"))
    return "the output directory " + output_dir +
           " is a build tree (it holds CMakeCache.txt); choose a directory of its own";
  return {};
}

llvm::Error write_mirror(const std::string& output_dir, const project& where, const resolved_edits& edits,
                         const std::set<std::string>& files_read, const clang::tooling::CompilationDatabase& database,
                         const std::vector<std::string>& units) {
  llvm::Expected<mirror> layout = mirror::make(output_dir, where, edits, files_read);
  if (!layout) return layout.takeError();
  llvm::json::Array entries;
  for (const std::string& unit : units) {
    const std::string unit_path = real_path(unit);
    for (const clang::tooling::CompileCommand& command : database.getCompileCommands(unit)) {
      llvm::json::Object entry{{"directory", command.Directory},
                               {"file", where.contains(unit_path) ? layout->path_of(unit_path) : command.Filename},
                               {"arguments", layout->arguments(command)}};
      if (!command.Output.empty()) entry["output"] = command.Output;
      entries.push_back(std::move(entry));
    }
  }
  std::string database_text;
  llvm::raw_string_ostream(database_text) << llvm::formatv("{0:2}", llvm::json::Value(std::move(entries))) << "\n";
  return layout->write({{(fs::path(output_dir) / "compile_commands.json").string(), database_text}}).takeError();
}

}  // namespace perf::tool
