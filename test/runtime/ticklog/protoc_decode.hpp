// protoc (the protocol buffers compiler) decoding a Perfetto trace against
// perfetto_subset.proto, for the tests whose sources CMake gives PERF_PROTOC and
// PERF_PERFETTO_SUBSET.
#ifndef PERF_TEST_RUNTIME_TICKLOG_PROTOC_DECODE_HPP
#define PERF_TEST_RUNTIME_TICKLOG_PROTOC_DECODE_HPP

#include <cstdio>
#include <filesystem>
#include <string>

namespace perf::testing {

// protoc's decoding of the trace at `path` in its text format, with its messages on
// stderr (its status, as pclose gives it, in *status).
inline std::string protoc_decode(const std::filesystem::path& path, int* status) {
  const std::filesystem::path subset(PERF_PERFETTO_SUBSET);
  const std::string command = std::string(PERF_PROTOC) + " --proto_path=" + subset.parent_path().string() +
                              " --decode=perfetto.protos.Trace " + subset.filename().string() + " < " + path.string() +
                              " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  std::string out;
  char buffer[4096];
  while (const size_t n = fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  *status = pclose(pipe);
  return out;
}

}  // namespace perf::testing

#endif  // PERF_TEST_RUNTIME_TICKLOG_PROTOC_DECODE_HPP
