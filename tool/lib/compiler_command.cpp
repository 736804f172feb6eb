#include "lib/compiler_command.hpp"

#include <clang/Tooling/CompilationDatabase.h>

#include <filesystem>
#include <set>

#include "lib/files.hpp"

namespace perf::tool {
namespace {

namespace fs = std::filesystem;

// The options read here that take a value, joined ("-Idir") or in the next word;
// longer names first, so that a name is never taken for a shorter one joined to a value.
constexpr std::string_view path_options[] = {"-idirafter", "-isystem", "-imacros", "-include",
                                             "-iquote",    "-MF",      "-I",       "-o"};

bool is_cxx_source(const std::string& word) {
  static const std::set<std::string> extensions = {".cpp", ".cc", ".cxx", ".c++", ".C", ".cp", ".CPP", ".CC"};
  return !word.empty() && word[0] != '-' && extensions.count(fs::path(word).extension().string()) != 0;
}

// The argument starting at words[i]; `i` moves to its last word.
command_argument read_argument(const std::vector<std::string>& words, std::size_t& i) {
  const std::string& word = words[i];
  for (const std::string_view name : path_options) {
    if (word == name && i + 1 < words.size()) {
      ++i;
      return {{word, words[i]}, word, words[i], {}};
    }
    if (word.size() > name.size() && word.compare(0, name.size(), name) == 0)
      return {{word}, std::string(name), word.substr(name.size()), {}};
  }
  return {{word}, {}, word, {}};
}

std::string real_path_in(const std::string& directory, const std::string& path) {
  return real_path(fs::path(path).is_absolute() ? path : (fs::path(directory) / path).string());
}

}  // namespace

compiler_command::compiler_command(std::string directory, const std::vector<std::string>& words,
                                   const std::string& file)
    : directory_(std::move(directory)) {
  for (std::size_t i = 0; i < words.size(); ++i) {
    command_argument argument = read_argument(words, i);
    if (i > 0 && (!argument.option.empty() || argument.is_input()))
      argument.real_path = real_path_in(directory_, argument.value);
    arguments_.push_back(std::move(argument));
  }
  if (!file.empty()) {
    unit_ = file;
  } else if (const std::vector<std::string> found = sources(); found.size() == 1) {
    unit_ = found.front();
  }
  if (!unit_.empty()) unit_path_ = real_path_in(directory_, unit_);
}

compiler_command::compiler_command(const clang::tooling::CompileCommand& command)
    : compiler_command(command.Directory, command.CommandLine, command.Filename) {}

std::vector<std::string> compiler_command::words() const {
  std::vector<std::string> out;
  for (const command_argument& argument : arguments_)
    out.insert(out.end(), argument.words.begin(), argument.words.end());
  return out;
}

std::vector<std::string> compiler_command::sources() const {
  std::vector<std::string> found;
  for (std::size_t i = 1; i < arguments_.size(); ++i)
    if (arguments_[i].option.empty() && is_cxx_source(arguments_[i].value)) found.push_back(arguments_[i].value);
  return found;
}

bool compiler_command::has(std::string_view flag) const {
  for (std::size_t i = 1; i < arguments_.size(); ++i)
    if (arguments_[i].option.empty() && arguments_[i].value == flag) return true;
  return false;
}

std::optional<std::string> compiler_command::value_of(std::string_view option) const {
  for (std::size_t i = 1; i < arguments_.size(); ++i)
    if (arguments_[i].option == option) return arguments_[i].value;
  return std::nullopt;
}

std::optional<std::string> compiler_command::depfile() const {
  if (std::optional<std::string> path = value_of("-MF")) return path;
  if (!has("-MD") && !has("-MMD")) return std::nullopt;
  std::optional<std::string> output = value_of("-o");
  if (!output) return std::nullopt;
  return fs::path(*output).replace_extension(".d").string();
}

std::string compiler_command::prefix_mapped(const std::string& path, std::string_view map_option) const {
  constexpr std::string_view file_map = "-ffile-prefix-map=";
  for (auto argument = arguments_.rbegin(); argument != arguments_.rend(); ++argument) {
    const std::string_view word = argument->value;
    std::string_view map;
    if (word.substr(0, map_option.size()) == map_option) {
      map = word.substr(map_option.size());
    } else if (word.substr(0, file_map.size()) == file_map) {
      map = word.substr(file_map.size());
    } else {
      continue;
    }
    const std::size_t equals = map.find('=');
    if (equals == std::string_view::npos) continue;
    const std::string_view old_prefix = map.substr(0, equals);
    if (path.compare(0, old_prefix.size(), old_prefix) == 0)
      return std::string(map.substr(equals + 1)) + path.substr(old_prefix.size());
  }
  return path;
}

}  // namespace perf::tool
