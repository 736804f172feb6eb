#include "core/output_file.hpp"

#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "core/config.hpp"
#include "core/warnings.hpp"

namespace perf::runtime {
namespace {

// The rest of `text` after `prefix`, or null when `text` does not start with it.
const char* after(const char* text, const char* prefix) noexcept {
  const size_t length = std::strlen(prefix);
  return std::strncmp(text, prefix, length) == 0 ? text + length : nullptr;
}

// The number the decimal digits [begin, end) spell, or -1 when they are not all
// digits, none, or more than an int holds.
long whole_number(const char* begin, const char* end) noexcept {
  if (begin == end) return -1;
  long value = 0;
  for (const char* c = begin; c != end; ++c) {
    if (*c < '0' || *c > '9' || value > (INT_MAX - 9) / 10) return -1;
    value = value * 10 + (*c - '0');
  }
  return value;
}

// Where the output for a path goes, its symbolic links followed.
struct destination {
  enum class kind { replace, stream, descriptor } how = kind::replace;
  std::string path;  // where the last link leads
  int fd = -1;       // kind::descriptor
  bool socket = false;
};

// The directory part of `path`, with its slash: "a/b/" for "a/b/c", "" for "c".
std::string directory_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

// Fills `out` for `path`; returns an error description, empty on success.
std::string resolve(const std::string& path, destination& out) {
  constexpr int most_links = 40;  // as the kernel's ELOOP limit
  std::string current = path;
  for (int links = 0; links <= most_links; ++links) {
    if (const int fd = named_descriptor(current.c_str()); fd >= 0) {
      out = {destination::kind::descriptor, current, fd, false};
      return {};
    }
    struct stat status;
    if (::lstat(current.c_str(), &status) != 0) {
      if (errno != ENOENT) return std::strerror(errno);
      out = {destination::kind::replace, current, -1, false};
      return {};
    }
    if (S_ISLNK(status.st_mode)) {
      char link[PATH_MAX];
      const ssize_t length = ::readlink(current.c_str(), link, sizeof link);
      if (length < 0) return std::strerror(errno);
      if (length == 0 || static_cast<size_t>(length) == sizeof link) return std::strerror(ENAMETOOLONG);
      const std::string target(link, static_cast<size_t>(length));
      current = target.front() == '/' ? target : directory_of(current) + target;
      continue;
    }
    if (S_ISREG(status.st_mode)) {
      // Renaming over the file needs only the directory's permission: the file's own
      // says whether it may be replaced, as it says whether it may be opened.
      if (::faccessat(AT_FDCWD, current.c_str(), W_OK, AT_EACCESS) != 0) return std::strerror(errno);
      out = {destination::kind::replace, current, -1, false};
      return {};
    }
    if (S_ISCHR(status.st_mode) || S_ISFIFO(status.st_mode) || S_ISSOCK(status.st_mode)) {
      out = {destination::kind::stream, current, -1, S_ISSOCK(status.st_mode)};
      return {};
    }
    if (S_ISDIR(status.st_mode)) return std::strerror(EISDIR);
    return "not a regular file, character device, FIFO or socket";
  }
  return std::strerror(ELOOP);
}

// A new file beside `path` for the whole output, renamed over `path` once written.
std::string replace(const std::string& path, const std::function<bool(int fd)>& write) {
  static std::atomic<unsigned long> temporaries{0};
  std::string temporary;
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {  // a name left by a killed process is skipped
    temporary = path + ".tmp." + std::to_string(getpid()) + "." + std::to_string(temporaries.fetch_add(1));
    fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) return std::strerror(errno);
  const bool written = write(fd);
  const int saved_errno = errno;
  if (::close(fd) != 0 || !written) {
    ::unlink(temporary.c_str());
    return std::strerror(written ? errno : saved_errno);
  }
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    const int rename_errno = errno;
    ::unlink(temporary.c_str());
    return std::strerror(rename_errno);
  }
  return {};
}

// While it lives, a SIGPIPE raised on this thread (writing to a pipe or socket whose
// reader has gone) is held back, and it is taken away before the thread's mask is
// restored: the write fails with EPIPE, and the program sees no signal.
class sigpipe_held_back {
 public:
  sigpipe_held_back() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    sigset_t pending;
    sigpending(&pending);
    was_pending_ = sigismember(&pending, SIGPIPE) == 1;
    pthread_sigmask(SIG_BLOCK, &pipe_, &previous_);
  }
  ~sigpipe_held_back() {
    sigset_t pending;
    sigpending(&pending);
    if (!was_pending_ && sigismember(&pending, SIGPIPE) == 1) {
      const timespec now{};
      sigtimedwait(&pipe_, nullptr, &now);
    }
    pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
  }
  sigpipe_held_back(const sigpipe_held_back&) = delete;
  sigpipe_held_back& operator=(const sigpipe_held_back&) = delete;

 private:
  sigset_t pipe_;
  sigset_t previous_;
  bool was_pending_ = false;
};

// A connection to the Unix socket at `path`, or -1 with errno set.
int connect_to(const std::string& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.size() >= sizeof address.sun_path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    const int connect_errno = errno;
    ::close(fd);
    errno = connect_errno;
    return -1;
  }
  return fd;
}

// The output written as it goes to a device, FIFO, socket or open descriptor.
std::string stream(const destination& to, const std::function<bool(int fd)>& write) {
  const sigpipe_held_back held_back;
  const int fd = to.how == destination::kind::descriptor ? to.fd
                 : to.socket                             ? connect_to(to.path)
                                                         : ::open(to.path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return std::strerror(errno);
  const bool written = write(fd);
  const int saved_errno = errno;
  if (to.how == destination::kind::descriptor) return written ? std::string() : std::strerror(saved_errno);
  if (::close(fd) != 0 && written) return std::strerror(errno);
  return written ? std::string() : std::strerror(saved_errno);
}

}  // namespace

bool write_all(int fd, const char* data, size_t size) noexcept {
  for (size_t done = 0; done < size;) {
    const ssize_t n = ::write(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) errno = ENOSPC;  // nothing written, no error: no room
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

int named_descriptor(const char* path) noexcept {
  if (std::strcmp(path, "/dev/stdin") == 0) return STDIN_FILENO;
  if (std::strcmp(path, "/dev/stdout") == 0) return STDOUT_FILENO;
  if (std::strcmp(path, "/dev/stderr") == 0) return STDERR_FILENO;
  const char* number = after(path, "/dev/fd/");
  if (number == nullptr) number = after(path, "/proc/self/fd/");
  if (number == nullptr) number = after(path, "/proc/thread-self/fd/");
  if (const char* pid = after(path, "/proc/"); number == nullptr && pid != nullptr) {
    const char* slash = std::strchr(pid, '/');
    if (slash != nullptr && whole_number(pid, slash) == static_cast<long>(getpid())) number = after(slash, "/fd/");
  }
  if (number == nullptr) return -1;
  return static_cast<int>(whole_number(number, number + std::strlen(number)));
}

std::string write_file(const std::string& path, const std::function<bool(int fd)>& write) {
  destination to;
  if (std::string error = resolve(path, to); !error.empty()) return error;
  return to.how == destination::kind::replace ? replace(to.path, write) : stream(to, write);
}

std::string expand_path(const std::string& path) { return expand_pid(path, static_cast<long>(getpid())); }

bool write_output(const char* what, const std::string& path, const std::function<bool(int fd)>& write) {
  const std::string expanded = expand_path(path);
  const std::string error = write_file(expanded, write);
  if (error.empty()) return true;
  warn(std::string("cannot write the ") + what + " to '" + expanded + "': " + error);
  return false;
}

}  // namespace perf::runtime
