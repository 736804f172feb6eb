"""json_calls.py REPORT.json: prints "calls name" for each function, by name and line
(a tab or newline in a name is printed as \\t or \\n, so each stays on its line)."""
import json
import sys

report = json.load(open(sys.argv[1]))
for f in sorted(report["functions"], key=lambda f: (f["name"], f["line"])):
    print(f["calls"], f["name"].replace("\t", "\\t").replace("\n", "\\n"))
