// A descriptor the runtime opened, and whether its number still names what the
// runtime opened. A program may close descriptors it did not open (a daemon's
// closefrom(3), a loop over every number) and open its own files, which then take
// the same numbers: the runtime must then neither write to them nor close them.
// The device and inode tell: a socket or a pipe has an inode of its own. Files on
// the anonymous inode (eventfd, epoll, perf events) share one, so for those a match
// says only "the same kind of file". Header-only: libperfexport uses it too.
#ifndef PERF_RUNTIME_CORE_OWNED_DESCRIPTOR_HPP
#define PERF_RUNTIME_CORE_OWNED_DESCRIPTOR_HPP

#include <sys/stat.h>

namespace perf::runtime {

struct owned_descriptor {
  int fd = -1;
  dev_t device = 0;
  ino_t inode = 0;

  // `fd` as it is now, just opened by the runtime; fd -1 when it is not open.
  static owned_descriptor of(int fd) noexcept {
    struct stat status {};
    if (fd < 0 || fstat(fd, &status) != 0) return {};
    return {fd, status.st_dev, status.st_ino};
  }

  // Whether `fd` still names the file it named when made. Async-signal-safe.
  bool still_ours() const noexcept {
    struct stat status {};
    return fd >= 0 && fstat(fd, &status) == 0 && status.st_dev == device && status.st_ino == inode;
  }
};

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_CORE_OWNED_DESCRIPTOR_HPP
