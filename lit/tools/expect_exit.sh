#!/usr/bin/env bash
# expect_exit.sh STATUS COMMAND...: runs COMMAND and fails unless it exits with STATUS.
expected=$1; shift
"$@"
status=$?
if [[ $status != "$expected" ]]; then
  echo "expect_exit: '$*' exited with $status, not $expected" >&2
  exit 1
fi
