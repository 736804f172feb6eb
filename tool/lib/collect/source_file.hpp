// The file a source location is written in, as the rest of the rewriter names files:
// by real path.
#ifndef PERF_TOOL_SOURCE_FILE_HPP
#define PERF_TOOL_SOURCE_FILE_HPP

#include <clang/Basic/SourceManager.h>

#include <string>

namespace perf::tool {

struct source_file {
  std::string real_path;  // "" when the location is in no file
  bool system = false;    // a system header
};

// The file `location` is written in (its file location's, for a macro).
source_file file_of(clang::SourceLocation location, const clang::SourceManager& sources);

// The real path of a file the source manager read (it keeps FileEntry pointers up to
// LLVM 17, references after).
std::string real_path_of(const clang::FileEntry* file);
std::string real_path_of(clang::FileEntryRef file);

}  // namespace perf::tool

#endif  // PERF_TOOL_SOURCE_FILE_HPP
