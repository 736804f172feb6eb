#include "lib/files.hpp"

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Signals.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Support/xxhash.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "lib/diagnostics.hpp"

namespace perf::tool {

std::string hash_of(std::initializer_list<llvm::StringRef> parts) {
  std::uint64_t hash = 0;
  for (const llvm::StringRef part : parts) hash = llvm::xxHash64(part) ^ (hash * 0x9E3779B97F4A7C15ull + part.size());
  return llvm::utohexstr(hash, /*LowerCase=*/true, /*Width=*/16);
}

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

// A new temporary file beside `path`, made by `create` (which returns 0 or an errno
// value, EEXIST for a name that is taken); returns its name. The name is registered
// for removal on a signal before the file exists: a signal between creating and
// registering it would leave it behind.
template <class Create>
llvm::Expected<std::string> create_beside(const std::string& path, Create create) {
  for (;;) {
    llvm::SmallString<256> name;
    llvm::sys::fs::createUniquePath(path + ".perf-instrument-%%%%%%", name, false);
    std::string temporary = name.str().str();
    llvm::sys::RemoveFileOnSignal(temporary);
    const int problem = create(temporary);
    if (problem == 0) return temporary;
    llvm::sys::DontRemoveFileOnSignal(temporary);
    if (problem != EEXIST) return failure("cannot write beside " + path, problem);
  }
}

// Creates the directories of `path` that are missing; one that another process
// creates at the same time is no error.
llvm::Error make_parent_directories(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  struct stat status {};
  if (::stat(parent.c_str(), &status) == 0 && S_ISDIR(status.st_mode)) return llvm::Error::success();
  std::string made;
  for (const std::filesystem::path& part : parent) {
    made = made.empty() || made.back() == '/' ? made + part.string() : made + "/" + part.string();
    if (::mkdir(made.c_str(), 0777) != 0 && errno != EEXIST)
      return failure("cannot create directory " + made + " for " + path, errno);
  }
  if (::stat(parent.c_str(), &status) != 0 || !S_ISDIR(status.st_mode))
    return failure("cannot create directory " + parent.string() + " for " + path, ENOTDIR);
  return llvm::Error::success();
}

// Writes `text` to a new temporary file beside `path`, with the permissions of
// `path` (or 0644); returns the temporary file's name.
llvm::Expected<std::string> stage(const std::string& path, const std::string& text) {
  if (llvm::Error problem = make_parent_directories(path)) return problem;
  struct stat existing {};
  const mode_t mode = ::stat(path.c_str(), &existing) == 0 ? (existing.st_mode & 07777) : 0644;
  int fd = -1;
  llvm::Expected<std::string> created = create_beside(path, [&](const std::string& name) {
    fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    return fd >= 0 ? 0 : errno;
  });
  if (!created) return created.takeError();
  const std::string temporary = *created;
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

llvm::Expected<bool> link_once(const std::string& existing, const std::string& path) {
  if (llvm::Error problem = make_parent_directories(path)) return problem;
  if (::link(existing.c_str(), path.c_str()) == 0) return true;
  if (errno == EEXIST) return false;
  return failure("cannot link " + path + " to " + existing, errno);
}

llvm::Expected<bool> write_file_once(const std::string& path, const std::string& text) {
  struct stat status {};
  if (::stat(path.c_str(), &status) == 0) return false;  // the common case, without a write
  llvm::Expected<std::string> temporary = stage(path, text);
  if (!temporary) return temporary.takeError();
  // A link, not a rename: a rename would replace the file another process made, whose
  // readers and linkers would then find it gone (link() fails on a file being unlinked).
  llvm::Expected<bool> made = link_once(*temporary, path);
  discard(*temporary);
  return made;
}

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
