#include "core/output_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/config.hpp"
#include "core/warnings.hpp"

namespace perf::runtime {

bool write_all(int fd, const char* data, size_t size) noexcept {
  for (size_t done = 0; done < size;) {
    const ssize_t n = ::write(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

std::string replace_file(const std::string& path, const std::function<bool(int fd)>& write) {
  const std::string temporary = path + ".tmp." + std::to_string(getpid());
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
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

std::string expand_path(const std::string& path) { return expand_pid(path, static_cast<long>(getpid())); }

bool write_output(const char* what, const std::string& path, const std::function<bool(int fd)>& write) {
  const std::string expanded = expand_path(path);
  const std::string error = replace_file(expanded, write);
  if (error.empty()) return true;
  warn(std::string("cannot write the ") + what + " to '" + expanded + "': " + error);
  return false;
}

}  // namespace perf::runtime
