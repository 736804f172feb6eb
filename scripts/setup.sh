#!/usr/bin/env bash
# Installs the Debian packages perf-instrument needs to build and test, if any is
# missing. Quick and silent when everything is there; needs root (or sudo) otherwise.
set -euo pipefail

packages=(
  cmake ninja-build g++ python3
  clang-14 libclang-14-dev llvm-14-dev llvm-14-tools  # the rewriter; lit and FileCheck
  libfmt-dev                                          # report formatting
  libgtest-dev libgmock-dev nlohmann-json3-dev        # tests
  libbenchmark-dev                                    # bench/
  ccache make bear                                    # tests: behind ccache, Makefiles, bear's database
  zlib1g-dev                                          # the sampler's pprof profile is gzipped
  golang-go                                           # tests: go tool pprof reads the sampler's profile
  libgoogle-perftools-dev                             # bench/: gperftools' profiler beside the sampler
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
((${#missing[@]} == 0)) && exit 0

echo "setup: installing ${missing[*]}" >&2
as_root=()
if ((EUID != 0)); then
  command -v sudo >/dev/null || { echo "setup: run as root to install: ${missing[*]}" >&2; exit 1; }
  as_root=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
