#include "lib/install_layout.hpp"

#include <llvm/Support/FileSystem.h>

#include <filesystem>

#include "lib/diagnostics.hpp"
#include "lib/files.hpp"

namespace perf::tool {
namespace {

namespace fs = std::filesystem;

// <prefix>/bin, where the binary lies.
fs::path binary_dir() { return fs::path(binary_path()).parent_path(); }

}  // namespace

std::string binary_path() {
  static int anchor;
  return llvm::sys::fs::getMainExecutable("perf-instrument", &anchor);
}

std::string perf_include_dir() {
  static const std::string directory = [] {
    const fs::path installed = binary_dir().parent_path() / "include";
    return fs::exists(installed / "perf" / "instrumented.hpp") ? installed.string()
                                                               : std::string(PERF_SOURCE_INCLUDE_DIR);
  }();
  return directory;
}

llvm::Expected<std::string> zero_edit_cmake_file() {
  const fs::path file = binary_dir() / PERF_PACKAGE_DIR_FROM_BINARY / "perf_instrument-zero-edit.cmake";
  if (!fs::exists(file))
    return error("there is no " + file.lexically_normal().string() +
                 ": the CMake integration comes with `cmake --install` of perf-instrument");
  return real_path(file.string());
}

}  // namespace perf::tool
