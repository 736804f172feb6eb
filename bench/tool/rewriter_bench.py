"""The rewriter's costs, as ratios measured in one run (see docs/rewriter.md,
"Performance"):

  large unit  perf-instrument --in-place on one large translation unit
              / clang++ -fsyntax-only on it, with the same flags (target <= 1.30)
  parallel    perf-instrument -j 1 / -j 2 over many translation units
              (target >= 1.70 on 2 cores), beside what the machine allows: one
              clang++ -fsyntax-only process at a time / two at a time

Usage: rewriter_bench.py PERF_INSTRUMENT CLANGXX [REPETITIONS]. The runs of the
things compared alternate, and each figure is the best of REPETITIONS (default 5),
the estimate least disturbed by other load. Every run of the rewriter starts from
fresh, uninstrumented sources.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

tool, clangxx = os.path.abspath(sys.argv[1]), sys.argv[2]
repetitions = int(sys.argv[3]) if len(sys.argv) > 3 else 5
flags = ["-std=c++17", "-O2", "-Wall"]
headers = ["algorithm", "functional", "iostream", "map", "memory", "regex", "string", "thread",
           "unordered_map", "vector"]


def unit(functions, seed):
    """A unit like much real code: standard headers, then many small measured functions."""
    text = "".join(f"#include <{h}>\n" for h in headers)
    for i in range(functions):
        text += (f"[[perf::measure]] int f{seed}_{i}(const std::vector<int>& v) "
                 f"{{ return static_cast<int>(std::count(v.begin(), v.end(), {i})); }}\n")
    return text


def write_sources(directory, units, functions):
    """Fresh sources and their database in `directory`; returns the units' names."""
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    names, entries = [], []
    for u in range(units):
        name = f"unit{u}.cpp"
        with open(os.path.join(directory, name), "w") as out:
            out.write(unit(functions, u))
        names.append(name)
        entries.append({"directory": directory, "file": os.path.join(directory, name),
                        "arguments": ["c++", *flags, "-c", name, "-o", name + ".o"]})
    with open(os.path.join(directory, "compile_commands.json"), "w") as out:
        json.dump(entries, out)
    return names


def timed(command, cwd, fresh_sources=None):
    """Seconds `command` takes; with `fresh_sources` (units, functions), cwd is first
    given fresh sources."""
    if fresh_sources:
        write_sources(cwd, *fresh_sources)
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def best_of_alternating(runs):
    """The best time of each (command, cwd, fresh_sources), the runs interleaved."""
    best = [float("inf")] * len(runs)
    for _ in range(repetitions):
        for i, run in enumerate(runs):
            best[i] = min(best[i], timed(*run))
    return best


def syntax_only(names):
    """A shell command parsing `names` one after the other with clang++."""
    return " && ".join(" ".join([clangxx, *flags, "-fsyntax-only", n]) for n in names)


def verdict(met):
    return "met" if met else "NOT MET"


with tempfile.TemporaryDirectory() as scratch:
    large, large_work = os.path.join(scratch, "large"), os.path.join(scratch, "large-work")
    [name] = write_sources(large, 1, 3000)
    syntax, rewrite = best_of_alternating([
        ([clangxx, *flags, "-fsyntax-only", name], large, None),
        ([tool, "-p", large_work, "--in-place"], large_work, (1, 3000))])
    print(f"large unit (10 standard headers, 3000 measured functions): clang++ -fsyntax-only {syntax:.3f} s, "
          f"perf-instrument --in-place {rewrite:.3f} s: {rewrite / syntax:.2f}x "
          f"(target <= 1.30: {verdict(rewrite / syntax <= 1.30)})")

    many, many_work = os.path.join(scratch, "many"), os.path.join(scratch, "many-work")
    names = write_sources(many, 24, 50)
    one_by_one = syntax_only(names)
    two_at_a_time = f"({syntax_only(names[0::2])}) & ({syntax_only(names[1::2])}); wait"
    serial, parallel, one_process, two_processes = best_of_alternating([
        ([tool, "-p", many_work, "-j", "1"], many_work, (24, 50)),
        ([tool, "-p", many_work, "-j", "2"], many_work, (24, 50)),
        (["bash", "-c", one_by_one], many, None),
        (["bash", "-c", two_at_a_time], many, None)])
    print(f"24 units: perf-instrument -j 1 {serial:.2f} s, -j 2 {parallel:.2f} s: {serial / parallel:.2f}x faster "
          f"(target >= 1.70 on 2 cores: {verdict(serial / parallel >= 1.70)}); "
          f"clang++ -fsyntax-only two at a time instead of one: {one_process / two_processes:.2f}x")
