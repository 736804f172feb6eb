"""make_db.py DIR STD FILE... [-- EXTRA_FLAG...]: copies the files into DIR (fresh)
and writes DIR/compile_commands.json compiling each .cpp among them with -std=STD
(FILE:STD overrides it for one file) and each .c with the C compiler's default."""
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
standards = {}
for f in files:
    path, _, own = f.partition(":")
    shutil.copy(path, directory)
    standards[os.path.basename(path)] = own or std
entries = []
for name, standard in standards.items():
    if name.endswith(".cpp"):
        entries.append({"directory": directory, "file": os.path.join(directory, name),
                        "arguments": ["c++", "-std=" + standard, *extra, "-c", name, "-o", name + ".o"]})
    elif name.endswith(".c"):
        entries.append({"directory": directory, "file": os.path.join(directory, name),
                        "arguments": ["cc", *extra, "-c", name, "-o", name + ".o"]})
with open(os.path.join(directory, "compile_commands.json"), "w") as out:
    json.dump(entries, out, indent=1)
