#include "file_text.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "parsed_report.hpp"

namespace perf::perf_report {

namespace {

[[noreturn]] void too_large(const std::string& path, size_t max_bytes) {
  throw input_error(
      fmt::format("{}: larger than {} MB, the input limit (--max-input-mb raises it)", path, max_bytes / 1'000'000));
}

}  // namespace

file_text::file_text(const std::string& path, size_t padding, size_t max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw input_error(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  struct stat status {};
  const bool regular = ::fstat(fd, &status) == 0 && S_ISREG(status.st_mode) && status.st_size > 0;
  if (regular && static_cast<size_t>(status.st_size) > max_bytes) {
    ::close(fd);
    too_large(path, max_bytes);
  }
  if (regular) {
    const size_t size = static_cast<size_t>(status.st_size);
    const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    const size_t whole = (size + padding + page - 1) / page * page;
    // Zeroed anonymous pages, the file mapped over their start: the bytes after the
    // end of the file, in its last page and beyond, read as zeros.
    void* area = ::mmap(nullptr, whole, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (area != MAP_FAILED &&
        ::mmap(area, size, PROT_READ, MAP_PRIVATE | MAP_FIXED | MAP_POPULATE, fd, 0) != MAP_FAILED) {
      mapping_ = area, mapping_size_ = whole;
      text_ = std::string_view(static_cast<const char*>(area), size);
      readable_ = whole;
    } else if (area != MAP_FAILED) {
      ::munmap(area, whole);
    }
  }
  if (mapping_ == nullptr) {  // read from this descriptor: a pipe opened twice would lose its data
    if (regular) read_.reserve(static_cast<size_t>(status.st_size) + padding);
    char buffer[1 << 16];
    ssize_t got = 0;
    while ((got = ::read(fd, buffer, sizeof buffer)) > 0 || (got < 0 && errno == EINTR)) {
      if (got > 0) read_.append(buffer, static_cast<size_t>(got));
      if (read_.size() > max_bytes) {  // a device (/dev/zero) or a pipe that never ends
        ::close(fd);
        too_large(path, max_bytes);
      }
    }
    if (got < 0) {
      const int error = errno;
      ::close(fd);
      throw input_error(fmt::format("{}: cannot read: {}", path, std::strerror(error)));
    }
    read_.reserve(read_.size() + padding);
    text_ = read_;
    readable_ = read_.capacity();
  }
  ::close(fd);
}

file_text::~file_text() {
  if (mapping_ != nullptr) ::munmap(mapping_, mapping_size_);
}

}  // namespace perf::perf_report
