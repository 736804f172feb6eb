#include "lib/project.hpp"

#include <clang/Tooling/CompilationDatabase.h>

#include <filesystem>
#include <set>

#include "lib/diagnostics.hpp"
#include "lib/files.hpp"

namespace perf::tool {
namespace {

namespace fs = std::filesystem;

// The deepest directory holding every one of `paths` (real, absolute).
std::string common_directory(const std::vector<std::string>& paths) {
  fs::path common;
  for (const std::string& path : paths) {
    const fs::path directory = fs::path(path).parent_path();
    if (common.empty()) {
      common = directory;
      continue;
    }
    fs::path shared;
    for (auto a = common.begin(), b = directory.begin(); a != common.end() && b != directory.end() && *a == *b;
         ++a, ++b)
      shared /= *a;
    common = shared;
  }
  return common.string();
}

// CMAKE_HOME_DIRECTORY from BUILD_DIR/CMakeCache.txt, "" when there is none.
std::string cmake_source_dir(const std::string& build_dir) {
  const std::optional<std::string> cache = read_file((fs::path(build_dir) / "CMakeCache.txt").string());
  if (!cache) return {};
  constexpr std::string_view key = "\nCMAKE_HOME_DIRECTORY:INTERNAL=";
  const std::size_t at = cache->find(key);
  if (at == std::string::npos) return {};
  const std::size_t start = at + key.size();
  return cache->substr(start, cache->find('\n', start) - start);
}

// Whether `path` lies under `directory`.
bool is_under(const std::string& path, const std::string& directory) {
  return path.size() > directory.size() && path.compare(0, directory.size(), directory) == 0 &&
         path[directory.size()] == '/';
}

}  // namespace

bool project::contains(const std::string& real_path) const {
  if (!is_under(real_path, root)) return false;
  for (const std::string& directory : excluded)
    if (real_path == directory || is_under(real_path, directory)) return false;
  return true;
}

bool project::in_system_directory(const std::string& real_path) const {
  for (const std::string& directory : system_directories)
    if (is_under(real_path, directory)) return true;
  return false;
}

bool project::edits(const std::string& real_path, bool system_header) const {
  return !system_header && contains(real_path) && !in_system_directory(real_path);
}

std::vector<std::string> system_directories(const clang::tooling::CompilationDatabase& database) {
  std::set<std::string> directories;
  for (const clang::tooling::CompileCommand& command : database.getAllCompileCommands()) {
    const std::vector<std::string>& arguments = command.CommandLine;
    for (std::size_t i = 1; i < arguments.size(); ++i)
      for (const std::string option : {"-isystem", "-idirafter"}) {
        std::string directory;
        if (arguments[i] == option && i + 1 < arguments.size()) directory = arguments[i + 1];
        else if (arguments[i].size() > option.size() && arguments[i].compare(0, option.size(), option) == 0)
          directory = arguments[i].substr(option.size());
        if (!directory.empty()) directories.insert(real_path((fs::path(command.Directory) / directory).string()));
      }
  }
  return {directories.begin(), directories.end()};
}

llvm::Expected<project> find_project(const std::string& explicit_root, const std::string& build_dir,
                                     const std::vector<std::string>& database_files) {
  std::string root = explicit_root;
  if (root.empty()) root = cmake_source_dir(build_dir);
  if (root.empty()) root = common_directory(database_files);
  if (root.empty()) return error("the database has no files");
  root = real_path(root);
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  if (!fs::is_directory(root)) return error("the project root " + root + " is not a directory");
  if (fs::path(root) == fs::path(root).root_path())
    return error("the project would be all of " + root +
                 " (the database's files have no other directory in common); name it with --root DIR");
  return project{root, {}, {}};
}

}  // namespace perf::tool
