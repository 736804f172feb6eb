#!/usr/bin/env bash
# Installs the Debian packages perf-instrument needs to build and test, if any is
# missing. Quick and silent when everything is there; needs root (or sudo) otherwise.
set -euo pipefail

packages=(
  cmake ninja-build g++ python3
  clang-14 libclang-14-dev llvm-14-dev llvm-14-tools  # the rewriter; lit and FileCheck
  clang-format-14                                     # tests: the code keeps .clang-format's style
  clang-19 libclang-19-dev llvm-19-dev llvm-19-tools  # tests: the rewriter also builds against LLVM 19 and passes its lit tests
  libfmt-dev                                          # report formatting
  libgtest-dev libgmock-dev nlohmann-json3-dev        # tests
  libbenchmark-dev                                    # bench/
  ccache make bear                                    # tests: behind ccache, Makefiles, bear's database
  pkg-config meson                                    # tests: perf-instrument.pc in a Makefile and a Meson project
  libtcmalloc-minimal4                                # tests: perf::alloc counts under another allocator
  heaptrack                                           # docs/allocations.md: the cross-check of the counts
  zlib1g-dev                                          # the sampler's pprof profile is gzipped
  libunwind-dev                                       # the runtime's stacks: unwound by .eh_frame (README, Dependencies)
  golang-go                                           # tests: go tool pprof reads the sampler's profile
  valgrind                                            # tests: the sampler runs clean under memcheck
  libgoogle-perftools-dev                             # bench/: gperftools' profiler beside the sampler
  nodejs                                              # tests: speedscope (npm) reads the sampler's folded stacks; node --check on the HTML page's script
  chromium                                            # tests: perf-report's HTML pages load in a real browser
  libmicrohttpd-dev                                   # the live endpoint's HTTP server (libperfexport, PERF_LISTEN)
  libsimdjson-dev                                     # perf-report reads large reports (2 x 14 MB) in well under 1 s
  protobuf-compiler                                   # tests: protoc decodes the Perfetto trace (PERF_TRACE=*.pftrace)
  systemtap-sdt-dev                                   # sys/sdt.h: libperfrt's USDT probes perf:enter/perf:exit (PERF_USDT)
  bpftrace                                            # tests: bpftrace attaches to the USDT probes of a running program
  prometheus curl                                     # tests: a real Prometheus scrapes the live endpoint, curl asks it, its promtool checks /metrics
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
as_root=()
if ((EUID != 0)); then
  as_root=(sudo)
fi

# Debian's nodejs comes without npm; NodeSource's has it built in (and conflicts with Debian's npm).
command -v npm >/dev/null || missing+=(npm)

if ((${#missing[@]} != 0)); then
  echo "setup: installing ${missing[*]}" >&2
  ((EUID == 0)) || command -v sudo >/dev/null || { echo "setup: run as root to install: ${missing[*]}" >&2; exit 1; }
  export DEBIAN_FRONTEND=noninteractive
  "${as_root[@]}" apt-get update -qq
  "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# speedscope (not in Debian): its importer reads the sampler's folded stacks in the
# tests (test/runtime/sampler/speedscope_import.mjs knows this version's bundle).
speedscope_version=1.25.0
if [[ "$(npm ls -g --depth=0 speedscope 2>/dev/null)" != *"speedscope@${speedscope_version}"* ]]; then
  echo "setup: installing speedscope@${speedscope_version} from npm" >&2
  "${as_root[@]}" npm install -g --silent "speedscope@${speedscope_version}" >/dev/null
fi

# puppeteer-core (not in Debian) drives the headless chromium of perf-report's browser
# test (test/perf_report/browser_test.sh); it goes under the build tree, never committed.
# PERF_BUILD_DIR: the build tree the tests run from (default build/).
puppeteer_version=22.15.0
browser_modules="${PERF_BUILD_DIR:-$(dirname "$0")/../build}/browser-test"
if [[ "$(npm ls --prefix "$browser_modules" --depth=0 puppeteer-core 2>/dev/null)" != *"puppeteer-core@${puppeteer_version}"* ]]; then
  echo "setup: installing puppeteer-core@${puppeteer_version} from npm into $browser_modules" >&2
  mkdir -p "$browser_modules"
  npm install --prefix "$browser_modules" --no-audit --no-fund --silent "puppeteer-core@${puppeteer_version}" >/dev/null
fi
