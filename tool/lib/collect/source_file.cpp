#include "lib/collect/source_file.hpp"

namespace perf::tool {

source_file file_of(clang::SourceLocation location, const clang::SourceManager& sources) {
  if (location.isInvalid()) return {};
  const clang::SourceLocation written = sources.getFileLoc(location);
  const clang::FileEntry* file = sources.getFileEntryForID(sources.getFileID(written));
  if (file == nullptr) return {};
  return {real_path_of(file), sources.isInSystemHeader(written)};
}

std::string real_path_of(const clang::FileEntry* file) { return file->tryGetRealPathName().str(); }

std::string real_path_of(clang::FileEntryRef file) { return real_path_of(&file.getFileEntry()); }

}  // namespace perf::tool
