"""make_tree_db.py SOURCE DEST [FLAG...]: copies the directory SOURCE to DEST (fresh)
and writes DEST/build/compile_commands.json, as CMake would for an out-of-source
build in DEST/build: one entry per .cpp under DEST/src, named relative to the build
directory. In FLAG, {root} stands for DEST."""
import json
import os
import shutil
import sys

source, dest = sys.argv[1], os.path.abspath(sys.argv[2])
shutil.rmtree(dest, ignore_errors=True)
shutil.copytree(source, dest)
build = os.path.join(dest, "build")
os.makedirs(build)
flags = [f.replace("{root}", dest) for f in sys.argv[3:]]
entries = []
for name in sorted(os.listdir(os.path.join(dest, "src"))):
    if name.endswith(".cpp"):
        relative = os.path.join("..", "src", name)
        entries.append({"directory": build, "file": relative,
                        "arguments": ["c++", *flags, "-c", relative, "-o", name + ".o"]})
with open(os.path.join(build, "compile_commands.json"), "w") as out:
    json.dump(entries, out, indent=1)
