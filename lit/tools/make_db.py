"""make_db.py DIR STD FILE... [-- EXTRA_FLAG...]: copies the files into DIR (fresh)
and writes DIR/compile_commands.json compiling each .cpp among them with -std=STD."""
import json
import os
import shutil
import sys

args = sys.argv[1:]
extra = args[args.index("--") + 1:] if "--" in args else []
args = args[: args.index("--")] if "--" in args else args
directory, std, files = os.path.abspath(args[0]), args[1], args[2:]
shutil.rmtree(directory, ignore_errors=True)
os.makedirs(directory)
for f in files:
    shutil.copy(f, directory)
entries = []
for f in files:
    name = os.path.basename(f)
    if name.endswith(".cpp"):
        entries.append({"directory": directory, "file": os.path.join(directory, name),
                        "arguments": ["c++", "-std=" + std, *extra, "-c", name, "-o", name + ".o"]})
with open(os.path.join(directory, "compile_commands.json"), "w") as out:
    json.dump(entries, out, indent=1)
