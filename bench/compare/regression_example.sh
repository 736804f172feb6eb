#!/bin/sh
# Runs the regression example RUNS times (default 20) and counts the runs in which both
# of its tests passed: the unchanged code passed and the 10% slowdown was caught.
# Usage: bench/compare/regression_example.sh BUILD_DIR [RUNS]
set -eu
build=${1:?usage: $0 BUILD_DIR [RUNS]}
runs=${2:-20}
program="$build/bench/compare/compare_regression_example"
[ -x "$program" ] || { echo "$0: $program is not built (cmake --build $build --target compare_regression_example)" >&2; exit 1; }
passed=0
i=0
while [ "$i" -lt "$runs" ]; do
  if "$program" --gtest_brief=1 > /dev/null 2>&1; then passed=$((passed + 1)); fi
  i=$((i + 1))
done
echo "regression example: $passed/$runs runs passed"
[ "$passed" -eq "$runs" ]
