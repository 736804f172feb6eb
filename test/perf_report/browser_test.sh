#!/usr/bin/env bash
# perf-report's pages in a real browser: a measured run (with sampled stacks) and a
# run with probe::render 20% slower, their report and diff pages, checked by
# browser_check.js in headless Chromium.
#   browser_test.sh PROBE PERF_REPORT CHROMIUM NODE_MODULES WORK_DIR
set -euo pipefail
probe=$1 perf_report=$2 chromium=$3 node_modules=$4 work=$5
here=$(cd "$(dirname "$0")" && pwd)
if [[ ! -d $node_modules/puppeteer-core ]]; then
  echo "browser test: no puppeteer-core in $node_modules: run scripts/setup.sh (it installs it there)" >&2
  exit 1
fi
rm -rf "$work" && mkdir -p "$work" && cd "$work"
export PERF_PROBE_CALLS=20000 PERF_PROBE_THREADS=2 PERF_PROBE_TINY=1  # tiny: a probe-dominated row
PERF_SAMPLE_HZ=997 PERF_PROFILE=stacks.txt PERF_REPORT=base.json "$probe"
PERF_SAMPLE_HZ=997 PERF_PROBE_SLOW=1.5 PERF_REPORT=slow.json "$probe"
PERF_SAMPLE_HZ=0 PERF_REPORT=exit.html "$probe"  # the same calls: its page must show them
"$perf_report" html base.json --folded stacks.txt -o report.html
"$perf_report" diff base.json slow.json --format html -o diff.html > /dev/null
"$perf_report" diff base.json slow.json --format json -o diff.json > /dev/null
"$perf_report" html base.json --distribution-kb 0 -o bare-report.html
"$perf_report" diff base.json slow.json --format html --distribution-kb 0 -o bare-diff.html > /dev/null
NODE_PATH=$node_modules timeout 60 node "$here/browser_check.js" "$chromium" base.json slow.json stacks.txt diff.json \
  report.html diff.html exit.html bare-report.html bare-diff.html "$work"
