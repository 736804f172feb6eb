#include "files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace perf::tool {

std::optional<std::string> read_file(const std::string& path, size_t limit) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  if (limit != std::string::npos) {
    std::string start(limit, '\0');
    in.read(start.data(), static_cast<std::streamsize>(limit));
    start.resize(static_cast<size_t>(in.gcount()));
    return start;
  }
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string write_file_atomically(const std::string& path, const std::string& text) {
  struct stat existing {};
  const mode_t mode = ::stat(path.c_str(), &existing) == 0 ? (existing.st_mode & 07777) : 0644;
  std::string temporary = path + ".perf-instrument-XXXXXX";
  const int fd = ::mkstemp(temporary.data());
  if (fd < 0) return std::strerror(errno);
  auto fail = [&](int error) {
    ::close(fd);
    ::unlink(temporary.c_str());
    return std::string(std::strerror(error));
  };
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return fail(errno);
    done += static_cast<size_t>(n);
  }
  if (::fchmod(fd, mode) != 0 || ::fsync(fd) != 0) return fail(errno);
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    return std::strerror(error);
  }
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    return std::strerror(error);
  }
  return {};
}

}  // namespace perf::tool
