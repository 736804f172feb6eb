#include "files.hpp"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Signals.h>
#include <llvm/Support/raw_ostream.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "diagnostics.hpp"

namespace perf::tool {

std::optional<std::string> read_file(const std::string& path, std::size_t limit) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text;
  if (limit == std::string::npos) {
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } else {
    text.resize(limit);
    in.read(text.data(), static_cast<std::streamsize>(limit));
    text.resize(static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) return std::nullopt;
  return text;
}

std::string real_path(const std::string& path) {
  std::error_code ignored;
  return std::filesystem::weakly_canonical(std::filesystem::absolute(path), ignored).string();
}

bool is_read_only(const std::string& path) {
  struct stat status {};
  return ::stat(path.c_str(), &status) == 0 && (status.st_mode & 0222) == 0;
}

namespace {

llvm::Error failure(const std::string& what, int number) { return error(what + ": " + std::strerror(number)); }

// Writes `text` to a new temporary file beside `path`, with the permissions of
// `path` (or 0644); returns the temporary file's name.
llvm::Expected<std::string> stage(const std::string& path, const std::string& text) {
  std::error_code ignored;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ignored);
  struct stat existing {};
  const mode_t mode = ::stat(path.c_str(), &existing) == 0 ? (existing.st_mode & 07777) : 0644;
  // The name is registered for removal on a signal before the file exists: a signal
  // between creating and registering it would leave it behind.
  std::string temporary;
  int fd = -1;
  for (;;) {
    llvm::SmallString<256> name;
    llvm::sys::fs::createUniquePath(path + ".perf-instrument-%%%%%%", name, false);
    temporary = name.str().str();
    llvm::sys::RemoveFileOnSignal(temporary);
    fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) break;
    const int error = errno;
    llvm::sys::DontRemoveFileOnSignal(temporary);
    if (error != EEXIST) return failure("cannot write beside " + path, error);
  }
  auto fail = [&](int error) -> llvm::Expected<std::string> {
    if (fd >= 0) ::close(fd);
    ::unlink(temporary.c_str());
    llvm::sys::DontRemoveFileOnSignal(temporary);
    return failure("cannot write beside " + path, error);
  };
  {
    llvm::raw_fd_ostream out(fd, /*shouldClose=*/false);
    out << text;
    out.flush();
    if (out.has_error()) {
      const std::error_code written = out.error();
      out.clear_error();
      return fail(written.value());
    }
  }
  if (::fchmod(fd, mode) != 0 || ::fsync(fd) != 0) return fail(errno);
  const int closed = ::close(fd);
  fd = -1;
  if (closed != 0) return fail(errno);
  return temporary;
}

void discard(const std::string& temporary) {
  ::unlink(temporary.c_str());
  llvm::sys::DontRemoveFileOnSignal(temporary);
}

}  // namespace

llvm::Error write_files_atomically(const std::map<std::string, std::string>& texts) {
  std::map<std::string, std::string> staged;  // path -> temporary file
  for (const auto& [path, text] : texts) {
    llvm::Expected<std::string> temporary = stage(path, text);
    if (!temporary) {
      for (const auto& [unused, written] : staged) discard(written);
      return error(llvm::toString(temporary.takeError()) + "; nothing was written");
    }
    staged[path] = *temporary;
  }
  for (const auto& [path, temporary] : staged) {
    if (::rename(temporary.c_str(), path.c_str()) != 0) {
      const int error = errno;
      for (auto left = staged.find(path); left != staged.end(); ++left) discard(left->second);
      return failure("cannot replace " + path, error);
    }
    llvm::sys::DontRemoveFileOnSignal(temporary);
  }
  return llvm::Error::success();
}

}  // namespace perf::tool
