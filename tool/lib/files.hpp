// Reading and writing source files without ever leaving one half-written.
#ifndef PERF_TOOL_FILES_HPP
#define PERF_TOOL_FILES_HPP

#include <llvm/ADT/StringRef.h>
#include <llvm/Support/Error.h>

#include <cstddef>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>

namespace perf::tool {

// The file's bytes (at most `limit` of them), nullopt when it cannot be read.
std::optional<std::string> read_file(const std::string& path, std::size_t limit = std::string::npos);

// `path` made absolute, with symbolic links, `.` and `..` resolved as far as the
// file system has them.
std::string real_path(const std::string& path);

// A hash of `parts` as 16 hex digits: names of files and keys that differ when the
// contents they stand for do.
std::string hash_of(std::initializer_list<llvm::StringRef> parts);

// Whether the file was made read-only on purpose: no write permission bit at all.
// (Write access alone does not say it: root may write anything.)
bool is_read_only(const std::string& path);

// Gives each path (the key) its text, creating missing directories: first every
// text goes to a temporary file beside its path (removed again if the process is
// interrupted), then, only when all were written, each is renamed over its path
// (atomic), keeping the permissions of the file it replaces. An interruption
// leaves each file old or new, never half-written; an error before the renames
// leaves all of them as they were.
llvm::Error write_files_atomically(const std::map<std::string, std::string>& texts);

// Files that are written once and never replaced, safe for any number of processes
// at once (the launchers of a parallel build): each creates the missing directories
// (one that another process creates meanwhile is no error) and then `path` in one
// step, or finds it there; neither replaces nor removes a file or directory, so a
// process that reads or links `path` always finds it whole. Both return whether this
// call made `path` (false: it was there, made by another call with the same content,
// as the caller's name for it says).
//
// write_file_once: `text` goes to a temporary file beside `path` (removed again if the
// process is interrupted) that is then linked to `path`.
llvm::Expected<bool> write_file_once(const std::string& path, const std::string& text);
// link_once: `path` becomes a hard link to the file `existing`.
llvm::Expected<bool> link_once(const std::string& existing, const std::string& path);

}  // namespace perf::tool

#endif  // PERF_TOOL_FILES_HPP
