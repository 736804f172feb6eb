// What a binary was built from, for its --version: the project's version and the git
// revision of the sources (generated at every build: version_info.cpp.in, revision.cmake).
#ifndef PERF_TOOL_VERSION_INFO_HPP
#define PERF_TOOL_VERSION_INFO_HPP

namespace perf::version_info {

// "0.1.0".
extern const char* const version;
// "1a2b3c4d5e6f" (12 hex digits of the commit), "1a2b3c4d5e6f-dirty" when tracked
// files differ from it, what -DPERF_GIT_REVISION said, or "unknown" outside a checkout.
extern const char* const revision;

}  // namespace perf::version_info

#endif  // PERF_TOOL_VERSION_INFO_HPP
