"""interrupted_runs.py PERF_INSTRUMENT DIR: writes 40 large units under DIR, runs
perf-instrument over them once to the end (taking T seconds), then 12 times more on
fresh copies, each ended by SIGTERM after a fraction of T (0.1 T to 1.2 T, so some land
while it parses and some while it writes). After each, every unit must be either as it
was or as the complete run made it, and no temporary file may be left. Prints one line
per run that holds, then how many runs left the files all old, all new, or mixed
(that depends on the machine's timing, so it is information, not a check)."""
import os
import shutil
import signal
import subprocess
import sys
import time

tool, root = sys.argv[1], os.path.abspath(sys.argv[2])
units = 40


def fresh(directory):
    """Units of one measured function and a megabyte of comment, and their database."""
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    entries = []
    for i in range(units):
        name = f"unit{i}.cpp"
        with open(os.path.join(directory, name), "w") as out:
            out.write(f"[[perf::measure]] int f{i}() {{ return {i}; }}\n" + ("// " + "x" * 1021 + "\n") * 1024)
        entries.append(f'{{"directory": "{directory}", "file": "{directory}/{name}", '
                       f'"arguments": ["c++", "-std=c++17", "-c", "{name}"]}}')
    with open(os.path.join(directory, "compile_commands.json"), "w") as out:
        out.write("[" + ",\n".join(entries) + "]\n")


def texts(directory):
    return {name: open(os.path.join(directory, name), "rb").read() for name in os.listdir(directory)
            if os.path.isfile(os.path.join(directory, name))}


work = os.path.join(root, "work")
fresh(work)
old = texts(work)
start = time.perf_counter()
subprocess.run([tool, "-p", work, "-j", "2"], check=True)
duration = time.perf_counter() - start
new = texts(work)
assert all(new[f"unit{i}.cpp"] != old[f"unit{i}.cpp"] for i in range(units)), "the complete run changed nothing"

states = {"all old": 0, "all new": 0, "mixed": 0}
for tenth in range(1, 13):
    fresh(work)
    process = subprocess.Popen([tool, "-p", work, "-j", "2"], stderr=subprocess.DEVNULL)
    time.sleep(duration * tenth / 10)
    process.send_signal(signal.SIGTERM)
    process.wait()
    now = texts(work)
    left = [name for name in now if ".perf-instrument-" in name]
    if left:
        sys.exit(f"interrupted_runs: temporary files left: {left}")
    kinds = set()
    for name, text in now.items():
        if name.endswith(".cpp"):
            if text not in (old[name], new[name]):
                sys.exit(f"interrupted_runs: {name} is neither as it was nor as a complete run makes it")
            kinds.add("old" if text == old[name] else "new")
    states["mixed" if len(kinds) > 1 else "all " + kinds.pop()] += 1
    print("every unit old or new, no temporary file")
print("seen:", ", ".join(f"{count} {state}" for state, count in states.items()), file=sys.stderr)
