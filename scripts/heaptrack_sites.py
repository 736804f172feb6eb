#!/usr/bin/env python3
"""A heaptrack trace's allocations and bytes per allocating function, laid out as
`go tool pprof -top` shows a heap profile: by the innermost frame past `operator new`
(pprof's flat column) and by the program's own functions, callees included (-cum).
For the cross-check in docs/allocations.md. Usage: heaptrack_sites.py TRACE.zst [TOP]

Reads heaptrack 1.4's interpreted trace: `s` strings, `i` instruction pointers (module,
then function [file line] and the inlined (function file line)), `t` trace nodes (ip,
parent), `a` allocation infos (size, trace), `+` allocations; numbers in hex."""
import collections
import re
import subprocess
import sys

trace_file, top = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 10
text = subprocess.run(["zstdcat", trace_file], check=True, capture_output=True, text=True).stdout
strings, ips, traces, infos = [""], [None], [None], []
allocations = collections.Counter()  # allocation info -> allocations made with it
for line in text.splitlines():
    kind, _, rest = line.partition(" ")
    if kind == "s":
        strings.append(rest.split(" ", 1)[1])
    elif kind == "i":
        fields = [int(f, 16) for f in rest.split()]
        ips.append((fields[1], fields[2:]))
    elif kind == "t":
        traces.append(tuple(int(f, 16) for f in rest.split()))
    elif kind == "a":
        infos.append(tuple(int(f, 16) for f in rest.split()))
    elif kind == "+":
        allocations[int(rest, 16)] += 1

executable = 1  # the first string: the executable's path


def function_names(ip):
    """The function at `ip` and the functions inlined there, innermost first."""
    frames = ips[ip][1]
    return [strings[frames[0]]] + [strings[frames[i]] for i in range(3, len(frames), 3)] if frames else []


# The program's own functions: not the standard library's inlined into it, nor the start-up's.
library = re.compile(r"^(void )?std::|^__|^_start$|^operator\(\)$|^_M_")
innermost_calls, innermost_size = collections.Counter(), collections.Counter()
calls, size = collections.Counter(), collections.Counter()
for info, count in allocations.items():
    bytes_, trace = infos[info]
    # heaptrack hooks malloc, so operator new is in its traces; a heap profile starts past it.
    leaf = trace
    while traces[leaf][1] and function_names(traces[leaf][0])[:1] and \
            function_names(traces[leaf][0])[0].startswith("operator new"):
        leaf = traces[leaf][1]
    names = function_names(traces[leaf][0])
    name = names[0] if names else f"(in {strings[ips[traces[leaf][0]][0]]})"
    innermost_calls[name] += count
    innermost_size[name] += count * bytes_
    seen = set()
    while trace:
        ip, trace = traces[trace]
        if ips[ip][0] != executable:
            continue
        for name in function_names(ip):
            if name not in seen and not library.search(name):
                seen.add(name)
                calls[name] += count
                size[name] += count * bytes_

print(f"total {sum(innermost_size.values())} B in {sum(innermost_calls.values())} allocations")
print("by the innermost frame past operator new (pprof -top):")
for name, b in innermost_size.most_common(top):
    print(f"{b:>12} B {innermost_calls[name]:>9} allocations  {name[:100]}")
print("by the program's functions, callees included (pprof -top -cum):")
for name, b in size.most_common(top):
    print(f"{b:>12} B {calls[name]:>9} allocations  {name[:100]}")
