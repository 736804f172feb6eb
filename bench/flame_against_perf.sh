#!/bin/sh
# The sampler's flame graph against Linux perf's, on one run of the same program
# (docs/sampler.md, "The stack walk"):
#
#   bench/flame_against_perf.sh [BUILD_DIR [SECONDS [FRAMES]]]
#
# Runs BUILD_DIR/test/runtime/library_paths_probe_plain (default: build; the probe's
# hot paths run through qsort, std::sort, snprintf, std::string and std::map, built
# without frame pointers, on two threads for SECONDS of CPU time each, default 3)
# once, under `perf record -e cpu-clock --call-graph dwarf` at 999 Hz with the
# runtime's sampler on at 1 kHz writing folded stacks. Folds perf's stacks the same way
# (user-space frames only, inlined frames expanded, as the sampler's are) and prints,
# for the FRAMES (default 10) frames perf finds in the most samples, each frame's
# inclusive share (the samples whose stack holds it) in perf's stacks and in the
# sampler's, and the difference (perf also samples the loader's start-up and the
# runtime's work at exit, outside run_paths: about 2 points at 3 s, 5 at 1 s). Exits 1
# if a difference exceeds 5 points, 2 if perf cannot record (not installed, or
# kernel.perf_event_paranoid above 1 for a user without CAP_PERFMON).
#
# Needs linux-perf, python3 and a build with the tests (ninja library_paths_probe_plain).
set -eu

build_dir=${1:-build}
seconds=${2:-3}
frames=${3:-10}
probe=$build_dir/test/runtime/library_paths_probe_plain

if [ ! -x "$probe" ]; then
  echo "flame_against_perf: $probe is missing: build it (ninja -C $build_dir library_paths_probe_plain)" >&2
  exit 2
fi
if ! command -v perf >/dev/null 2>&1; then
  echo "flame_against_perf: perf is not installed (Debian's linux-perf)" >&2
  exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! PERF_SAMPLE_HZ=1000 PERF_PROFILE="$work/ours.folded" PERF_REPORT=off \
  perf record -q -o "$work/perf.data" -F 999 -e cpu-clock --call-graph dwarf,16384 "$probe" "$seconds" \
  >"$work/record.log" 2>&1; then
  echo "flame_against_perf: perf record failed (kernel.perf_event_paranoid is" \
    "$(cat /proc/sys/kernel/perf_event_paranoid)):" >&2
  cat "$work/record.log" >&2
  exit 2
fi
perf script -i "$work/perf.data" -F comm,tid,ip,sym >"$work/perf.txt" 2>"$work/script.log"

python3 - "$work/ours.folded" "$work/perf.txt" "$frames" <<'EOF'
import collections
import sys

ours_path, perf_path, frames = sys.argv[1], sys.argv[2], int(sys.argv[3])


def short_name(name):
    """A frame's function as both tools name it: no "(inlined)" mark, anonymous
    namespace, template arguments, parameters or return type; the C library's names of
    one function made one (perf names it as its debug information does, the sampler as
    its symbol table does: __GI___qsort_r and qsort_r, __libc_start_main_impl and
    __libc_start_main) by leaving out __GI_, leading underscores and an _impl suffix."""
    name = name.removesuffix(" (inlined)").replace("(anonymous namespace)", "")
    shortened, depth = "", 0
    for c in name.split("(")[0]:
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif depth == 0:
            shortened += c
    shortened = shortened.split(" ")[-1].lstrip(":")
    if "::" in shortened:
        return shortened
    return shortened.removeprefix("__GI_").lstrip("_").removesuffix("_impl")


def inclusive(stacks):
    """Each function's share (percent) of the samples whose stack holds it, and the samples."""
    counts, total = collections.Counter(), 0
    for names, count in stacks:
        total += count
        for name in set(names):
            counts[name] += count
    return {name: 100.0 * n / total for name, n in counts.items()}, total


def ours():
    for line in open(ours_path):
        stack, count = line.rstrip("\n").rsplit(" ", 1)
        yield [short_name(frame) for frame in stack.split(";")], int(count)


def perfs():
    """perf script's samples: a header line, then one frame a line ("ip sym"), then a
    blank line. Kernel frames are left out: the sampler's stacks start in user space."""
    names = []
    for line in open(perf_path):
        fields = line.split(None, 1)
        if not line.strip():
            if names:
                yield names, 1
            names = []
        elif line[0] in " \t" and len(fields) == 2 and not fields[0].startswith("ffffffff"):
            names.append(short_name(fields[1].strip()))
    if names:
        yield names, 1


theirs, perf_samples = inclusive(perfs())
mine, our_samples = inclusive(ours())
print(f"{our_samples} samples of the sampler's, {perf_samples} of perf's")
print(f"{'perf':>7} {'ours':>7} {'diff':>6}  frame")
worst = 0.0
for name, share in sorted(theirs.items(), key=lambda item: -item[1])[:frames]:
    ours_share = mine.get(name, 0.0)
    worst = max(worst, abs(ours_share - share))
    print(f"{share:6.1f}% {ours_share:6.1f}% {ours_share - share:+6.1f}  {name}")
print(f"largest difference: {worst:.1f} points (limit 5)")
sys.exit(1 if worst > 5 else 0)
EOF
