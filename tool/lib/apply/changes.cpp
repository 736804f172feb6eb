#include "lib/apply/changes.hpp"

#include <unistd.h>

#include <filesystem>

#include "lib/diagnostics.hpp"
#include "lib/files.hpp"
#include "lib/plan/instrumentation_text.hpp"

namespace perf::tool {
namespace {

namespace fs = std::filesystem;

}  // namespace

llvm::Expected<change_set> instrumentation_changes(const resolved_edits& edits) {
  change_set changes;
  for (const auto& [path, file] : edits.files) {
    std::optional<std::string> before = read_file(path);
    if (!before) return error("cannot read " + path);
    std::string after = apply_edits(*before, path, file, destination::same_file);
    if (after != *before) changes[path] = {std::move(*before), std::move(after)};
  }
  return changes;
}

change_set revert_changes(const project& editable) {
  change_set changes;
  std::error_code failure;
  for (auto entry =
           fs::recursive_directory_iterator(editable.root, fs::directory_options::skip_permission_denied, failure);
       entry != fs::recursive_directory_iterator(); entry.increment(failure)) {
    if (failure) break;
    if (entry->is_symlink() || !entry->is_regular_file()) continue;
    const std::string path = entry->path().string();
    const std::optional<std::string> start = read_file(path, header_search_bytes);
    if (!start || !has_runtime_header(*start)) continue;
    std::optional<std::string> before = read_file(path);
    if (!before) continue;
    std::string after = remove_instrumentation(*before);
    changes[path] = {std::move(*before), std::move(after)};
  }
  return changes;
}

llvm::Error write_changes(const change_set& changes) {
  for (const auto& [path, change] : changes)
    if (is_read_only(path) || ::access(path.c_str(), W_OK) != 0 ||
        ::access(fs::path(path).parent_path().c_str(), W_OK) != 0)
      return error(path + " is read-only; nothing was written");
  std::map<std::string, std::string> texts;
  for (const auto& [path, change] : changes) texts[path] = change.after;
  return write_files_atomically(texts);
}

}  // namespace perf::tool
