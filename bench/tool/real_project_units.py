#!/usr/bin/env python3
"""real_project_units.py [--variants=NAME,...] [--rounds=N] PERF_INSTRUMENT BUILD_DIR [UNIT...]:
what the zero-edit launcher costs each unit of a real project, as ratios to the plain
compilation of the same unit measured in the same run (docs/performance.md, "Build
overhead"). Without UNITs, every unit of the database (their sum is a clean build's CPU).

BUILD_DIR is a configured CMake build of the project with compile_commands.json (and
CMakeCache.txt, which names the project). For every UNIT (a source path as the
database names it, or its end) the compilation is run, round after round, as:
  plain      the database's command
  launcher   perf-instrument --launch on it, no --filter (a unit without a mark is
             compiled as it is, one with a mark is parsed)
  reused     the same again: the plan kept from the first launch
  filter     --filter '.*' at the default size threshold (a fresh plan each round)
  filterkept the same again: the plan kept from `filter`, so no parse; what `filter`
             costs beyond it is the parse, what it costs beyond `plain` the scopes
  filter0    --filter '.*' --size-threshold 0 (a fresh plan each round)
and the CPU time (user + system) of each, children included, is taken; each figure is
the minimum over the rounds (3 unless --rounds says), the estimate least disturbed by
other load. --variants runs only those named (plain always, and in the order above;
reused brings launcher, filterkept brings filter, whose plans they use)."""
import json
import os
import resource
import shlex
import shutil
import subprocess
import sys


def cpu_of(command, directory):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=directory, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    arguments = sys.argv[1:]
    chosen, rounds = None, 3
    while arguments and arguments[0].startswith("--"):
        option, _, value = arguments.pop(0).partition("=")
        if option == "--variants":
            chosen = {"plain"} | set(value.split(","))
            chosen |= {"launcher"} if "reused" in chosen else set()
            chosen |= {"filter"} if "filterkept" in chosen else set()
        elif option == "--rounds":
            rounds = int(value)
        else:
            sys.exit(f"real_project_units.py: unknown option {option}")
    tool, build, units = os.path.abspath(arguments[0]), os.path.abspath(arguments[1]), arguments[2:]
    database = json.load(open(os.path.join(build, "compile_commands.json")))
    plans = os.path.join(build, "perf-instrument", "plans")
    launch = [tool, "--launch", "-p", build]
    variants = {
        "plain": ([], False),
        "launcher": (launch + ["--"], True),
        "reused": (launch + ["--"], False),
        "filter": (launch + ["--filter=.*", "--"], True),
        "filterkept": (launch + ["--filter=.*", "--"], False),
        "filter0": (launch + ["--filter=.*", "--size-threshold=0", "--"], True),
    }
    if chosen is not None:
        unknown = chosen - set(variants)
        if unknown:
            sys.exit(f"real_project_units.py: unknown variant {', '.join(sorted(unknown))}; known: {', '.join(variants)}")
        variants = {name: v for name, v in variants.items() if name in chosen}
    totals = {name: 0.0 for name in variants}
    for unit in units or [e["file"] for e in database]:
        entry = next(e for e in database if e["file"].endswith(unit))
        command = entry.get("arguments") or shlex.split(entry["command"])
        best = {name: float("inf") for name in variants}
        for _ in range(rounds):
            for name, (prefix, fresh) in variants.items():
                if fresh:
                    shutil.rmtree(plans, ignore_errors=True)
                best[name] = min(best[name], cpu_of(prefix + command, entry["directory"]))
        print(f"{unit}: plain {best['plain']:.2f} s; " +
              ", ".join(f"{name} {best[name] / best['plain']:.2f}x" for name in variants if name != "plain"))
        for name in variants:
            totals[name] += best[name]
    print(f"all {len(units) or len(database)} units: plain {totals['plain']:.2f} s; " +
          ", ".join(f"{name} {totals[name] / totals['plain']:.2f}x" for name in variants if name != "plain"))


if __name__ == "__main__":
    main()
