"""The rewriter's costs as ratios measured in one run (see docs/performance.md):

  large unit: perf-instrument on one large translation unit / clang++ -fsyntax-only on it
  parallel:   perf-instrument -j 1 / -j 2 over 24 translation units, beside the same
              ratio for clang++ -fsyntax-only run as one and as two processes (what
              the machine itself allows)

Usage: rewrite_bench.py PERF_INSTRUMENT CLANGXX. Each time is the best of 5 runs.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

tool, clangxx = sys.argv[1], sys.argv[2]
headers = ["algorithm", "functional", "iostream", "map", "memory", "regex", "string", "thread",
           "unordered_map", "vector"]


def best_of(runs, command, cwd):
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - start)
    return best


def unit(functions, seed):
    text = "".join(f"#include <{h}>\n" for h in headers)
    for i in range(functions):
        text += (f"[[perf::measure]] int f{seed}_{i}(const std::vector<int>& v) "
                 f"{{ return static_cast<int>(std::count(v.begin(), v.end(), {i})); }}\n")
    return text


def write_project(directory, units, functions):
    entries = []
    for u in range(units):
        name = f"unit{u}.cpp"
        with open(os.path.join(directory, name), "w") as out:
            out.write(unit(functions, u))
        entries.append({"directory": directory, "file": os.path.join(directory, name),
                        "arguments": ["c++", "-std=c++17", "-c", name, "-o", name + ".o"]})
    with open(os.path.join(directory, "compile_commands.json"), "w") as out:
        json.dump(entries, out)


with tempfile.TemporaryDirectory() as large, tempfile.TemporaryDirectory() as many:
    write_project(large, 1, 3000)
    syntax = best_of(5, [clangxx, "-std=c++17", "-fsyntax-only", "unit0.cpp"], large)
    rewrite = best_of(5, [tool, "-p", large, "--diff"], large)
    ratio = rewrite / syntax
    print(f"large unit (10 standard headers, 3000 measured functions): clang++ -fsyntax-only {syntax:.3f} s, "
          f"perf-instrument --diff {rewrite:.3f} s: {ratio:.2f}x (target <= 1.30: {'met' if ratio <= 1.30 else 'NOT MET'})")

    write_project(many, 24, 50)
    serial = best_of(3, [tool, "-p", many, "--list", "-j", "1"], many)
    parallel = best_of(3, [tool, "-p", many, "--list", "-j", "2"], many)
    speedup = serial / parallel
    units = [f"unit{u}.cpp" for u in range(24)]
    compile_all = lambda names: " && ".join(f"{clangxx} -std=c++17 -fsyntax-only {n}" for n in names)
    one_process = best_of(3, ["bash", "-c", compile_all(units)], many)
    two_processes = best_of(3, ["bash", "-c", f"({compile_all(units[0::2])}) & ({compile_all(units[1::2])}); wait"], many)
    print(f"24 units: -j 1 {serial:.2f} s, -j 2 {parallel:.2f} s: {speedup:.2f}x faster "
          f"(target >= 1.70 on 2 cores: {'met' if speedup >= 1.70 else 'NOT MET'}); "
          f"clang++ as two processes instead of one: {one_process / two_processes:.2f}x")
