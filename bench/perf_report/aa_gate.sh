#!/bin/bash
# The CI gate `perf-report diff --fail-if 'p50>+10%'` (default options otherwise) on
# runs of the test suite's report_probe program (docs/perf-report.md, "How often the
# gate cries wolf"):
#   A/A: two runs of the same program, one report per side: how often the gate fires;
#   20%: a run with probe::render 20% slower against a run as built: how often the gate
#        names probe::render, with one report per side and with RUNS reports per side.
# Each probe run: one thread, CALLS calls of each step, a function called once at start
# (probe::setup) and one of a few ns (probe::tiny), sampling on, as a user's run is.
#   bench/perf_report/aa_gate.sh PERF_REPORT REPORT_PROBE [PAIRS=40] [RUNS=3] [CALLS=20000]
set -euo pipefail
report=$1 probe=$2 pairs=${3:-40} runs=${4:-3} calls=${5:-20000}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export PERF_PROBE_CALLS=$calls PERF_PROBE_THREADS=1 PERF_PROBE_TINY=1 PERF_PROBE_SETUP=1

run() {  # run NAME SLOW
  PERF_REPORT="$dir/$1.json" PERF_PROBE_SLOW=$2 "$probe"
}

gate() {  # gate BASE... --new NEW...: prints the gate's broken lines; never fails
  "$report" diff "$@" --fail-if 'p50>+10%' > "$dir/out" || true
  grep '^broken: ' "$dir/out" || true
}

aa_fired=0 one_caught=0 several_caught=0
aa_lines=() missed=()
for ((i = 0; i < pairs; ++i)); do
  # The sides take turns going first: a load that grows or fades favours neither.
  for k in 0 1 2; do
    case $(((i + k) % 3)) in
      0) run "base$i" 1 ;;
      1) run "same$i" 1 ;;
      2) run "slow$i" 1.2 ;;
    esac
  done
  broken=$(gate "$dir/base$i.json" "$dir/same$i.json")
  if [ -n "$broken" ]; then aa_fired=$((aa_fired + 1)); aa_lines+=("pair $i: $broken"); fi
  if gate "$dir/base$i.json" "$dir/slow$i.json" | grep -q ': probe::render p50 '; then
    one_caught=$((one_caught + 1))
  else
    missed+=("pair $i, one report per side")
  fi
  base=() slow=()
  for ((r = 0; r < runs; ++r)); do
    if (((i + r) % 2)); then run "sb$i-$r" 1; run "ss$i-$r" 1.2; else run "ss$i-$r" 1.2; run "sb$i-$r" 1; fi
    base+=("$dir/sb$i-$r.json") slow+=("$dir/ss$i-$r.json")
  done
  if gate "${base[@]}" --new "${slow[@]}" | grep -q ': probe::render p50 '; then
    several_caught=$((several_caught + 1))
  else
    missed+=("pair $i, $runs reports per side")
  fi
done

echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "A/A, one report per side: the gate fired in $aa_fired of $pairs pairs"
for line in "${aa_lines[@]+"${aa_lines[@]}"}"; do echo "  $line"; done
echo "probe::render 20% slower, one report per side: caught in $one_caught of $pairs pairs"
echo "probe::render 20% slower, $runs reports per side: caught in $several_caught of $pairs pairs"
for line in "${missed[@]+"${missed[@]}"}"; do echo "  missed: $line"; done
