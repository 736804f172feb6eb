"""json_calls.py REPORT.json: prints "calls name" for each function, by name and line."""
import json
import sys

report = json.load(open(sys.argv[1]))
for f in sorted(report["functions"], key=lambda f: (f["name"], f["line"])):
    print(f["calls"], f["name"])
