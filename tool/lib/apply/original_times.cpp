#include "lib/apply/original_times.hpp"

#include <clang/Tooling/CompilationDatabase.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "lib/files.hpp"
#include "lib/plan/instrumentation_text.hpp"

namespace perf::tool {
namespace {

namespace fs = std::filesystem;

struct remembered_time {
  std::int64_t original, instrumented;  // nanoseconds since the epoch
};

// Real path -> its times.
using time_store = std::map<std::string, remembered_time>;

std::string store_path(const std::string& build_dir) {
  return (fs::path(real_path(build_dir)) / "perf-instrument" / "original-times.json").string();
}

std::optional<std::int64_t> modification_time(const std::string& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) return std::nullopt;
  return std::int64_t{status.st_mtim.tv_sec} * 1'000'000'000 + status.st_mtim.tv_nsec;
}

bool set_modification_time(const std::string& path, std::int64_t time) {
  const timespec times[2] = {{0, UTIME_OMIT}, {time / 1'000'000'000, time % 1'000'000'000}};
  return ::utimensat(AT_FDCWD, path.c_str(), times, 0) == 0;
}

// The store, empty when there is none or it cannot be read.
time_store load(const std::string& build_dir) {
  time_store store;
  const std::optional<std::string> text = read_file(store_path(build_dir));
  if (!text) return store;
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(*text);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return store;
  }
  if (const llvm::json::Object* files = parsed->getAsObject())
    for (const auto& [path, times] : *files) {
      const llvm::json::Array* pair = times.getAsArray();
      if (pair == nullptr || pair->size() != 2) continue;
      const auto original = (*pair)[0].getAsInteger();
      const auto instrumented = (*pair)[1].getAsInteger();
      if (original && instrumented) store[path.str()] = {*original, *instrumented};
    }
  return store;
}

llvm::Error save(const time_store& store, const std::string& build_dir) {
  const std::string path = store_path(build_dir);
  if (store.empty()) {
    std::error_code ignored;
    fs::remove(path, ignored);
    fs::remove(fs::path(path).parent_path(), ignored);  // only when empty: the zero-edit mirror may be there
    return llvm::Error::success();
  }
  llvm::json::Object files;
  for (const auto& [file, times] : store) files[file] = llvm::json::Array{times.original, times.instrumented};
  std::string text;
  llvm::raw_string_ostream(text) << llvm::formatv("{0:2}", llvm::json::Value(std::move(files))) << "\n";
  return write_files_atomically({{path, text}});
}

// Whether `path` still has the time the store says it was given when instrumented.
bool untouched_since(const time_store& store, const std::string& path, std::int64_t now) {
  const auto found = store.find(path);
  return found != store.end() && found->second.instrumented == now;
}

}  // namespace

llvm::Error write_instrumentation(const change_set& changes, const std::string& build_dir) {
  time_store store = load(build_dir);
  std::map<std::string, std::int64_t> originals;
  for (const auto& [path, change] : changes) {
    const std::optional<std::int64_t> now = modification_time(path);
    if (now && !has_runtime_header(change.before)) originals[path] = *now;
    else if (now && untouched_since(store, path, *now)) originals[path] = store[path].original;
  }
  if (llvm::Error error = write_changes(changes)) return error;
  for (const auto& [path, change] : changes) {
    const std::optional<std::int64_t> now = modification_time(path);
    const auto original = originals.find(path);
    if (now && original != originals.end()) store[path] = {original->second, *now};
    else store.erase(path);
  }
  return save(store, build_dir);
}

llvm::Expected<std::size_t> write_revert(const change_set& changes, const std::string& build_dir,
                                         const std::optional<std::vector<std::string>>& object_files) {
  time_store store = load(build_dir);
  std::map<std::string, std::int64_t> restorable;
  if (object_files) {
    std::int64_t last_build = 0;
    for (const std::string& object : *object_files)
      last_build = std::max(last_build, modification_time(object).value_or(0));
    for (const auto& [path, change] : changes) {
      const std::optional<std::int64_t> now = modification_time(path);
      if (now && untouched_since(store, path, *now) && last_build < *now) restorable[path] = store[path].original;
    }
  }
  if (llvm::Error error = write_changes(changes)) return error;
  std::size_t restored = 0;
  for (const auto& [path, time] : restorable) restored += set_modification_time(path, time) ? 1 : 0;
  for (const auto& [path, change] : changes) store.erase(path);
  if (llvm::Error error = save(store, build_dir)) return error;
  return restored;
}

std::vector<std::string> object_files(const clang::tooling::CompilationDatabase& database) {
  std::vector<std::string> objects;
  for (const clang::tooling::CompileCommand& command : database.getAllCompileCommands()) {
    std::string output = command.Output;
    const std::vector<std::string>& arguments = command.CommandLine;
    for (std::size_t i = 1; output.empty() && i < arguments.size(); ++i)
      if (arguments[i] == "-o" && i + 1 < arguments.size()) output = arguments[i + 1];
      else if (arguments[i].size() > 2 && arguments[i].compare(0, 2, "-o") == 0) output = arguments[i].substr(2);
    if (!output.empty()) objects.push_back((fs::path(command.Directory) / output).string());
  }
  return objects;
}

}  // namespace perf::tool
