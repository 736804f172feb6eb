#!/usr/bin/env bash
# rewrite_test.sh SOURCE FIRST_STD TMP: the standard rewrite test.
#   1. SOURCE is copied to TMP with a compile_commands.json (-std=c++FIRST_STD);
#   2. perf-instrument rewrites it in place (its stderr is kept in TMP/stderr);
#   3. FileCheck checks the rewritten file against SOURCE's CHECK lines;
#   4. the rewritten file compiles warning-free with g++ and clang++ at every
#      standard from FIRST_STD to 23;
#   5. if SOURCE has REPORT lines, it is built with the runtime and run, and its
#      report's call counts are checked against them.
set -euo pipefail
source=$1 first=$2 tmp=$3
tools=$(dirname "$0")
name=$(basename "$source")
python3 "$tools/make_db.py" "$tmp" "c++$first" "$source"
"$PERF_INSTRUMENT" -p "$tmp" 2> "$tmp/stderr"
"$FILECHECK" "$source" --input-file "$tmp/$name"
standards=()
for std in 11 14 17 20 23; do ((std >= first)) && standards+=("$std"); done
"$tools/compile_all.sh" "$tmp/$name" "${standards[@]}"
if grep -q '^// REPORT' "$source"; then
  "$tools/run_report.sh" "$first" "$tmp/$name" | "$FILECHECK" "$source" --check-prefix=REPORT
fi
