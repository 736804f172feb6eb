"""compile_db.py DATABASE: runs every entry's command (with -fsyntax-only) in its
directory; prints "compiled FILE" for each, and fails on the first that does not."""
import json
import subprocess
import sys

for entry in json.load(open(sys.argv[1])):
    arguments = [a for a in entry["arguments"]]
    if "-o" in arguments:
        at = arguments.index("-o")
        del arguments[at:at + 2]
    subprocess.run(arguments + ["-fsyntax-only", "-Werror"], cwd=entry["directory"], check=True)
    print("compiled", entry["file"])
