// Why a write of a crash record failed, in words. Async-signal-safe.
#ifndef PERF_RUNTIME_TICKLOG_INTERNAL_WRITE_ERROR_TEXT_HPP
#define PERF_RUNTIME_TICKLOG_INTERNAL_WRITE_ERROR_TEXT_HPP

#include <cerrno>

namespace perf::runtime {

// What a failed write's errno means, without strerror (which is not async-signal-safe).
inline const char* write_error_text(int error) noexcept {
  switch (error) {
    case ENOSPC: return "no space left on device";
    case EFBIG: return "file too large";
    case EDQUOT: return "disk quota exceeded";
    case EIO: return "input/output error";
    case EPIPE: return "broken pipe";
  }
  return "write error";
}

}  // namespace perf::runtime

#endif  // PERF_RUNTIME_TICKLOG_INTERNAL_WRITE_ERROR_TEXT_HPP
