#!/usr/bin/env python3
"""The invariants of every report row, in processes run beside busy loops (issue 36).

Runs PROGRAM (a program built with perf-instrument) PROCESSES times, each beside HOGS
busy loops on a machine with fewer spare cores than that, and checks each process's JSON
report: no negative figure; self <= total; min <= mean <= max and every percentile
within [min, max]; each --leaf's total equal to its self time; each --callee's total at
most its only caller's. Then `perf-report merge` reads every report, which names any row
that breaks its own checks. Prints one line a process and a verdict; exits 1 when a
figure broke an invariant.

  bench/figures_under_load.py --perf-report build/tool/perf-report --processes 10 --hogs 3 \\
      --leaf 'logs::counter<Key>::add' --callee 'logs::(anonymous namespace)::parse_timestamp=logs::parse_line' \\
      -- build-example/log_pipeline/log_pipeline 20000
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

# Figures are written to 0.1 ns: two of them that are equal in truth may differ by that.
WRITTEN = 0.1
TIMES = ("total_ns", "self_ns", "min_ns", "mean_ns", "max_ns", "p50_ns", "p90_ns", "p99_ns", "p999_ns")


def row_problems(row):
    name = row["name"]
    problems = [f"{name}: {key} {row[key]} is negative" for key in TIMES if row.get(key) is not None and row[key] < 0]
    if row["self_ns"] > row["total_ns"] + WRITTEN:
        problems.append(f"{name}: self {row['self_ns']} above total {row['total_ns']}")
    if row["calls"] > 0:
        if not row["min_ns"] - WRITTEN <= row["mean_ns"] <= row["max_ns"] + WRITTEN:
            problems.append(f"{name}: mean {row['mean_ns']} outside [{row['min_ns']}, {row['max_ns']}]")
        for key in ("p50_ns", "p90_ns", "p99_ns", "p999_ns"):
            if row.get(key) is not None and not row["min_ns"] - WRITTEN <= row[key] <= row["max_ns"] + WRITTEN:
                problems.append(f"{name}: {key} {row[key]} outside [{row['min_ns']}, {row['max_ns']}]")
    return problems


def one_process(program, report_path, hogs):
    loops = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(hogs)]
    try:
        env = dict(os.environ, PERF_REPORT=report_path)
        subprocess.run(program, env=env, stdout=subprocess.DEVNULL, check=True)
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
    with open(report_path) as f:
        return json.load(f)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--perf-report", required=True)
    parser.add_argument("--processes", type=int, default=10)
    parser.add_argument("--hogs", type=int, default=3)
    parser.add_argument("--leaf", action="append", default=[], help="a function that calls no measured function")
    parser.add_argument("--callee", action="append", default=[], help="CALLEE=CALLER, CALLER its only caller")
    parser.add_argument("program", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    program = args.program[1:] if args.program[:1] == ["--"] else args.program
    if not program:
        parser.error("no program to run")
    pairs = [pair.split("=", 1) for pair in args.callee]
    broken = 0
    with tempfile.TemporaryDirectory() as directory:
        paths = []
        for i in range(args.processes):
            path = os.path.join(directory, f"run{i}.json")
            paths.append(path)
            rows = {row["name"]: row for row in one_process(program, path, args.hogs)["functions"]}
            problems = [p for row in rows.values() for p in row_problems(row)]
            leaf_ratios = []
            for leaf in args.leaf:
                row = rows[leaf]
                leaf_ratios.append(row["total_ns"] / row["self_ns"] if row["self_ns"] > 0 else 1.0)
                if abs(row["total_ns"] - row["self_ns"]) > WRITTEN:
                    problems.append(f"{leaf}: a leaf's total {row['total_ns']} is not its self {row['self_ns']}")
            callee_ratios = []
            for callee, caller in pairs:
                callee_ratios.append(rows[callee]["total_ns"] / rows[caller]["total_ns"])
                if rows[callee]["total_ns"] > rows[caller]["total_ns"] + WRITTEN:
                    problems.append(f"{callee}: total above its only caller {caller}'s")
            broken += len(problems)
            print(f"process {i}: {len(rows)} rows, {len(problems)} broken; leaf total/self at most "
                  f"{max(leaf_ratios, default=1):.3f}; callee/caller total at most {max(callee_ratios, default=0):.3f}")
            for problem in problems:
                print(f"  {problem}")
        merged = subprocess.run([args.perf_report, "merge", *paths, "-o", os.path.join(directory, "all.json")],
                                capture_output=True, text=True)
        if merged.returncode != 0:
            broken += 1
            print(f"perf-report merge refused the reports: {merged.stderr.strip()}")
    print(f"{args.processes} processes beside {args.hogs} busy loop{'' if args.hogs == 1 else 's'}: "
          f"{'no figure broke an invariant' if broken == 0 else f'{broken} broken'}")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
