#!/bin/bash
# perf-report ab on examples/log_pipeline (docs/perf-report.md, "How well ab gates"):
#   A/A: the same build on both sides, default settings, gate p50>+5%: how often it fires
#        (and how often any figure of any function is flagged at all);
#   3%:  logs::parse_line made 3% slower, gate p50>+1%, --runs RUNS_3 within a 60 s budget:
#        caught when the gate breaks on logs::parse_line itself;
#   20%: logs::parse_line made 20% slower, gate p50>+5%, default --runs;
#   diff: DIFF_PAIRS pairs of single reports of the same build, diff --fail-if 'p50>+5%' with
#        the default between-process floor and with the floor ab measured (--save-noise).
# The slowdown is a spin at parse_line's start in a bench copy of the example (spin_copy.sh):
# PIPELINE_SPIN rounds of a multiply (3 cycles) that the parse waits for, so one build serves
# both sides (--base 'env PIPELINE_SPIN=B ...' --new 'env PIPELINE_SPIN=B+K ...').
# BASE_ROUNDS (B) makes parse_line longer on both sides: its median as built (~36 ns) is
# under four ticks of a clock of 10 ns resolution (a VM's), where 3% is a ninth of a tick.
# K is calibrated first: ab of B against B+100 rounds gives a round's cost at the median.
#   bench/perf_report/ab_gate.sh PREFIX [AA_TRIALS=100] [SLOW_TRIALS=20] [BASE_ROUNDS=0] [LINES=20000]
#                                [RUNS_3=60] [DIFF_PAIRS=40]
# PREFIX: perf-instrument installed there (cmake --install build --prefix PREFIX).
set -euo pipefail
prefix=$(cd "$1" && pwd) aa=${2:-100} slow=${3:-20} base_rounds=${4:-0} lines=${5:-20000}
runs3=${6:-60} pairs=${7:-40}
root=$(cd "$(dirname "$0")/../.." && pwd)
report=$prefix/bin/perf-report
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

. "$root/bench/perf_report/spin_copy.sh"
build_spin_copy "$root" "$prefix" "$work"
app="$work/build/log_pipeline $lines"

# figure FILE FUNCTION FIGURE SIDE: a figure of an ab JSON result
figure() {
  python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
print(next(f for f in r["functions"] if f["name"] == sys.argv[2])["figures"][sys.argv[3]][sys.argv[4]])' "$@"
}
# flagged FILE: the functions with any figure beyond noise
flagged() {
  python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
print(" ".join(f["name"] for f in r["functions"] if any(v["beyond_noise"] for v in f["figures"].values())))' "$1"
}

side() { echo "env PIPELINE_SPIN=$((base_rounds + $1)) $app"; }
"$report" ab --base "$(side 0)" --new "$(side 100)" --runs 8 --format json -o "$work/calibration.json" > /dev/null || true
p50=$(figure "$work/calibration.json" logs::parse_line p50 base)
spun=$(figure "$work/calibration.json" logs::parse_line p50 new)
rounds() { python3 -c "print(max(1, round($1 * $p50 / (($spun - $p50) / 100))))"; }
k3=$(rounds 0.03) k20=$(rounds 0.20)
# A round costs less within a short spin than the 100-round one says (the parse overlaps
# it): the 3% is measured once more at its own size and the rounds scaled to it.
"$report" ab --base "$(side 0)" --new "$(side "$k3")" --runs 20 --format json -o "$work/calibration3.json" > /dev/null || true
k3=$(python3 -c "print(max(1, round($k3 * 0.03 / ($(figure "$work/calibration3.json" logs::parse_line p50 ratio) - 1))))")
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' '), model $(grep -m1 '^model[[:space:]]' /proc/cpuinfo | cut -d: -f2 | tr -d ' '), $(nproc) CPUs"
echo "parse_line p50 with $base_rounds rounds $p50 ns; 100 more: $spun ns; 3%: $k3 more rounds, 20%: $k20 more"

# trial NAME SPIN RULE [OPTION...]: one ab run; prints "rc seconds processes parse_line-p50-ratio | broken | flagged"
trial() {
  local start end rc=0
  start=$(date +%s.%N)
  "$report" ab --base "$(side 0)" --new "$(side "$2")" --fail-if "$3" "${@:4}" --time-budget 60 --format json \
    -o "$work/$1.json" > "$work/$1.out" || rc=$?
  end=$(date +%s.%N)
  [ "$rc" -le 1 ] || { cat "$work/$1.out" >&2; exit 2; }
  python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
pl = next(f for f in r["functions"] if f["name"] == "logs::parse_line")["figures"]["p50"]
flagged = [f["name"] for f in r["functions"] if any(v["beyond_noise"] for v in f["figures"].values())]
print(sys.argv[2], "%.1f" % (float(sys.argv[4]) - float(sys.argv[3])), r["base_processes"] + r["new_processes"],
      "%.4f" % pl.get("ratio", 0), "|", "; ".join(r["broken"]), "|", " ".join(flagged))' \
    "$work/$1.json" "$rc" "$start" "$end"
}

summary() {  # summary NAME TRIALS FILE: caught/fired count, seconds and processes
  python3 -c 'import sys
rows = [l.split(" | ") for l in open(sys.argv[3]).read().splitlines()]
heads = [r[0].split() for r in rows]
fired = sum(h[0] == "1" for h in heads)
named = sum("logs::parse_line p50" in r[1] for r in rows)
any_flag = sum(r[2].strip() != "" for r in rows)
secs = sorted(float(h[1]) for h in heads); procs = sorted(int(h[2]) for h in heads)
ratios = sorted(float(h[3]) for h in heads)
print("%s: %d trials; gate fired %d, on logs::parse_line %d; any function flagged in %d; seconds median %.1f max %.1f; processes median %d max %d; parse_line p50 ratio %.4f..%.4f (median %.4f)" %
      (sys.argv[1], len(rows), fired, named, any_flag, secs[len(secs)//2], secs[-1], procs[len(procs)//2], procs[-1],
       ratios[0], ratios[-1], ratios[len(ratios)//2]))' "$@"
}

: > "$work/aa.txt" ; : > "$work/slow3.txt" ; : > "$work/slow20.txt"
for ((i = 0; i < aa; ++i)); do trial "aa$i" 0 'p50>+5%' >> "$work/aa.txt"; done
for ((i = 0; i < slow; ++i)); do
  trial "s3_$i" "$k3" 'p50>+1%' --runs "$runs3" >> "$work/slow3.txt"
  trial "s20_$i" "$k20" 'p50>+5%' >> "$work/slow20.txt"
done
diff_default=0 diff_measured=0 diff_lines=()
if [ "$pairs" -gt 0 ]; then
  "$report" ab --base "$(side 0)" --new "$(side 0)" --save-noise "$work/floor.json" > /dev/null || true
  echo "between-process floor measured by ab (A/A, $(side 0)): $(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["figures"])' "$work/floor.json")"
  for ((i = 0; i < pairs; ++i)); do
    for k in 0 1; do  # the sides take turns going first
      if (((i + k) % 2)); then PERF_REPORT="$work/d$i-b.json" $(side 0) > /dev/null; else PERF_REPORT="$work/d$i-n.json" $(side 0) > /dev/null; fi
    done
    rc=0; "$report" diff "$work/d$i-b.json" "$work/d$i-n.json" --fail-if 'p50>+5%' > "$work/d.out" || rc=$?
    if [ $rc = 1 ]; then diff_default=$((diff_default + 1)); diff_lines+=("pair $i, default floor: $(grep '^broken: ' "$work/d.out" | head -3 | tr '\n' ' ')"); fi
    rc=0; "$report" diff "$work/d$i-b.json" "$work/d$i-n.json" --fail-if 'p50>+5%' --noise-from "$work/floor.json" > "$work/d.out" || rc=$?
    if [ $rc = 1 ]; then diff_measured=$((diff_measured + 1)); diff_lines+=("pair $i, measured floor: $(grep '^broken: ' "$work/d.out" | head -3 | tr '\n' ' ')"); fi
  done
fi

echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
[ "$aa" -gt 0 ] && summary "A/A, gate p50>+5%" "$aa" "$work/aa.txt"
[ "$slow" -gt 0 ] && summary "parse_line +3% ($k3 rounds), gate p50>+1%" "$slow" "$work/slow3.txt"
[ "$slow" -gt 0 ] && summary "parse_line +20% ($k20 rounds), gate p50>+5%" "$slow" "$work/slow20.txt"
if [ "$pairs" -gt 0 ]; then
  echo "diff, one report per side, A/A, gate p50>+5%: fired in $diff_default of $pairs pairs with the default floor, $diff_measured with the floor ab measured"
  for line in "${diff_lines[@]+"${diff_lines[@]}"}"; do echo "  $line"; done
fi
echo "--- every trial: rc seconds processes parse_line-p50-ratio | broken | flagged"
for f in aa slow3 slow20; do sed "s/^/$f /" "$work/$f.txt"; done
