#!/usr/bin/env bash
# compile_all.sh FILE STD...: FILE must compile without a warning under g++ and
# clang++ at each standard (11 14 17 20 23), against the perf headers.
set -eu
file=$1; shift
for std in "$@"; do
  for compiler in g++ clang++; do
    flag=-std=c++$std
    [[ $compiler == clang++ && $std == 23 ]] && flag=-std=c++2b  # Clang 14's name for it
    "$compiler" "$flag" -Wall -Wextra -Werror -I"$PERF_INCLUDE_DIR" -fsyntax-only "$file" ||
      { echo "compile_all: $compiler $flag failed on $file" >&2; exit 1; }
  done
done
