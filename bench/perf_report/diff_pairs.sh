#!/bin/bash
# perf-report diff of one report per side on examples/log_pipeline under load
# (docs/perf-report.md, "The fastest calls must move too"): 2 x PAIRS processes of the bench
# copy (spin_copy.sh) run one after another, process 2k with BASE_SPIN rounds in parse_line
# and 2k+1 with NEW_SPIN (the sides taking turns going first), beside HOGS `nice` busy loops;
# then each perf-report given judges every pair with --fail-if 'p50>+5%': how many pairs
# fire, and on which function; with BASE_SPIN = NEW_SPIN (A/A) also every process against
# the next one ("overlapping" pairs). Comparing two perf-reports on the same reports gives
# a before and after.
#   bench/perf_report/diff_pairs.sh PREFIX [PAIRS=60] [BASE_SPIN=0] [NEW_SPIN=0] [HOGS=2] [LINES=20000]
#                                    [PERF_REPORT...]   (default PREFIX/bin/perf-report)
set -euo pipefail
prefix=$(cd "$1" && pwd) pairs=${2:-60} base_spin=${3:-0} new_spin=${4:-0} hogs=${5:-2} lines=${6:-20000}
shift $(($# < 6 ? $# : 6))
tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=("$prefix/bin/perf-report")
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
hog_pids=()
cleanup() {
  for pid in "${hog_pids[@]+"${hog_pids[@]}"}"; do kill "$pid" 2> /dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

. "$root/bench/perf_report/spin_copy.sh"
build_spin_copy "$root" "$prefix" "$work"
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' '), model $(grep -m1 '^model[[:space:]]' /proc/cpuinfo | cut -d: -f2 | tr -d ' '), $(nproc) CPUs"

for ((h = 0; h < hogs; ++h)); do
  nice sh -c 'while :; do :; done' &
  hog_pids+=($!)
done
run() { PERF_REPORT="$work/$1.json" PIPELINE_SPIN=$2 "$work/build/log_pipeline" "$lines" > /dev/null; }
for ((k = 0; k < pairs; ++k)); do
  if ((k % 2)); then run $((2 * k + 1)) "$new_spin"; run $((2 * k)) "$base_spin"
  else run $((2 * k)) "$base_spin"; run $((2 * k + 1)) "$new_spin"; fi
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
for pid in "${hog_pids[@]+"${hog_pids[@]}"}"; do kill "$pid"; done
hog_pids=()

python3 - "$work" "$pairs" <<'PY'
import json, statistics, sys
work, pairs = sys.argv[1], int(sys.argv[2])
def p50(i):
    r = json.load(open(f"{work}/{i}.json"))
    return next(f["p50_ns"] for f in r["functions"] if f["name"] == "logs::parse_line")
ratios = sorted(p50(2 * k + 1) / p50(2 * k) for k in range(pairs))
print("parse_line p50 ratio new/base: median %.3f, range %.3f..%.3f" % (statistics.median(ratios), ratios[0], ratios[-1]))
PY
# fired TOOL BASE NEW: prints the first broken line when the gate fires
fired() {
  local rc=0 out
  out=$("$1" diff "$work/$2.json" "$work/$3.json" --fail-if 'p50>+5%' 2>&1) || rc=$?
  [ "$rc" -le 1 ] || { echo "diff_pairs.sh: $1 exited $rc: $out" >&2; exit 2; }
  [ "$rc" = 0 ] || grep -m1 '^broken: ' <<< "$out"
}
for tool in "${tools[@]}"; do
  count=0 on_parse_line=0
  for ((k = 0; k < pairs; ++k)); do
    line=$(fired "$tool" $((2 * k)) $((2 * k + 1)))
    [ -z "$line" ] && continue
    count=$((count + 1))
    if grep -q 'logs::parse_line p50' <<< "$line"; then on_parse_line=$((on_parse_line + 1)); fi
    echo "  pair $k: $line"
  done
  echo "$tool: fired in $count of $pairs pairs, on logs::parse_line in $on_parse_line"
  if [ "$base_spin" = "$new_spin" ]; then
    count=0
    for ((i = 0; i + 1 < 2 * pairs; ++i)); do [ -z "$(fired "$tool" $i $((i + 1)))" ] || count=$((count + 1)); done
    echo "$tool: fired in $count of $((2 * pairs - 1)) overlapping pairs"
  fi
done
