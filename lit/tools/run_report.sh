#!/usr/bin/env bash
# run_report.sh STD FILE...: builds FILE... with g++, links the runtime, runs the
# program and prints "calls name" per measured function, sorted by name.
set -eu
std=$1; shift
out=$(mktemp -d)
g++ -std=c++$std -Wall -Wextra -Werror -I"$PERF_INCLUDE_DIR" "$@" -o "$out/program" \
  -L"$PERF_RUNTIME_LIB_DIR" -lperfrt -Wl,-rpath,"$PERF_RUNTIME_LIB_DIR" -pthread
PERF_REPORT="$out/report.json" "$out/program" >/dev/null
python3 "$PERF_JSON_CALLS" "$out/report.json"
rm -rf "$out"
