#!/usr/bin/env bash
# Builds everything and runs every test: runtime (plain, ASan+UBSan, TSan), the
# rewriter's unit and lit tests, the install-package test. Usage: scripts/test.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}

"$root/scripts/setup.sh"
# The rewriter against LLVM 14 (the oldest supported; with 19 installed too, CMake would
# pick either): test/CMakeLists.txt builds it against 19 as well.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPERF_WERROR=ON \
  -DClang_DIR=/usr/lib/llvm-14/lib/cmake/clang >/dev/null
cmake --build "$build" -j "$(nproc)"
cd "$build"
# --no-tests=error: a configuration that registers no test fails instead of passing.
ctest -j "$(nproc)" --output-on-failure --timeout 300 --no-tests=error
